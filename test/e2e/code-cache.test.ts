// The launcher's code cache, through the binary a user runs: the second run of a command takes it, and a cache
// that is corrupt, open to others or cannot be kept changes nothing of what the command does.
import { chmodSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKeys } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

function cacheHome(): { home: string; dir: string; files: () => string[] } {
  const home = mkdtempSync(join(tmpdir(), 'trident-cache-home-'));
  const dir = join(home, 'trident', 'code');
  return { home, dir, files: () => readdirSync(dir).map((name) => join(dir, name)) };
}

describe('the code cache of the launcher', () => {
  it('is made by the first run of a command and taken by the next; broken or open to others, it changes no answer', async () => {
    const cache = cacheHome();
    const env = { XDG_CACHE_HOME: cache.home };
    const first = await runKeys(sandbox, ['list', '-o', 'json', '--columns', 'api_key,name'], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    const [file] = cache.files();
    expect(file).toMatch(new RegExp(`-${process.version}-${process.arch}-keys-list\\.bin$`));
    expect(statSync(cache.dir).mode & 0o777).toBe(0o700);
    expect(statSync(file!).mode & 0o777).toBe(0o600);

    const again = await runKeys(sandbox, ['list', '-o', 'json', '--columns', 'api_key,name'], { env });
    expect(again).toEqual(first);

    writeFileSync(file!, 'garbage');
    expect(await runKeys(sandbox, ['list', '-o', 'json', '--columns', 'api_key,name'], { env })).toEqual(first);
    expect(statSync(file!).size).toBeGreaterThan(1000); // refused by V8, and made again

    chmodSync(file!, 0o666);
    expect(await runKeys(sandbox, ['list', '-o', 'json', '--columns', 'api_key,name'], { env })).toEqual(first);
    expect(statSync(file!).mode & 0o777).toBe(0o600);

    chmodSync(cache.dir, 0o777);
    expect(await runKeys(sandbox, ['list', '-o', 'json', '--columns', 'api_key,name'], { env })).toEqual(first);
  });

  it('is no reason for a command to fail where no cache can be kept', async () => {
    const blocked = mkdtempSync(join(tmpdir(), 'trident-cache-file-'));
    writeFileSync(join(blocked, 'trident'), 'a file where the cache directory would go');
    for (const home of [blocked, '/proc/self/no-cache']) {
      const result = await runKeys(sandbox, ['list', '-o', 'json', '--columns', 'api_key'], { env: { XDG_CACHE_HOME: home } });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toContainEqual({ api_key: sandbox.bootstrap.keyId });
    }
  });
});
