// Completion of values that depend on the user's settings and services, in real bash, zsh and fish: the scripts
// call `trident __complete`, the built binary, for profiles, setting keys, the catalog's stores and key ids.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTING_KEYS } from '../../src/core/files/settings.js';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { smallCatalog, startSandbox as startCatalog } from '../helpers/catalog-fixtures.js';
import { BIN, runCli, tempConfigDir } from '../helpers/cli.js';
import { sandboxEnv, startSandbox as startKeys } from '../helpers/keys-sandbox.js';
import { itWithTools } from '../helpers/system-tools.js';

let catalog: CatalogSandbox;
let keys: KeysSandbox;
let silent: Server;
let silentUrl: string;
let configDir: string;

beforeAll(async () => {
  [catalog, keys] = await Promise.all([startCatalog(smallCatalog()), startKeys()]);
  // A catalog that takes the connection and never answers.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  configDir = tempConfigDir();
  for (const [profile, key, value] of [
    ['work', 'catalog.url', catalog.url],
    ['stalled', 'catalog.url', silentUrl],
  ]) {
    const set = await runCli(['--profile', profile!, 'config', 'set', key!, value!], { configDir });
    expect(set.exitCode, set.stderr).toBe(0);
  }
});
afterAll(async () => {
  silent.closeAllConnections();
  silent.close();
  await Promise.all([catalog.close(), keys.close()]);
});

async function scriptFile(shell: 'bash' | 'zsh' | 'fish'): Promise<string> {
  const result = await runCli(['completion', shell]);
  const file = join(mkdtempSync(join(tmpdir(), 'trident-completion-')), `trident.${shell}`);
  writeFileSync(file, result.stdout);
  return file;
}

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TRIDENT_CONFIG_DIR: configDir,
  NODE: process.execPath,
  BIN,
  ...extra,
});

interface Completed {
  values: string[];
  stderr: string;
  ms: number;
}

/** A word as the shell reads it back unchanged, whatever it holds. */
const singleQuoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** What bash offers for the words typed (the last one being completed), `trident` being the built binary. */
function inBash(file: string, words: string[], extra: Record<string, string> = {}, cwd?: string): Promise<Completed> {
  const program = `trident() { "$NODE" "$BIN" "$@"; }
source ${JSON.stringify(file)}
COMP_WORDS=(${words.map(singleQuoted).join(' ')})
COMP_CWORD=${words.length - 1}
_trident
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return run('bash', ['--norc', '-c', program], extra, cwd);
}

/** What zsh's compadd is given, with compadd and compdef standing in for the completion system's. */
function inZsh(file: string, words: string[], cwd?: string): Promise<Completed> {
  const program = `trident() { "$NODE" "$BIN" "$@"; }
compdef() { : }
compadd() { [[ "$1" == -- ]] && shift; printf '%s\\n' "$@"; }
source ${JSON.stringify(file)}
words=(${words.map(singleQuoted).join(' ')})
CURRENT=${words.length}
_trident`;
  return run('zsh', ['-f', '-c', program], {}, cwd);
}

/** What fish offers for the command line typed so far. */
function inFish(file: string, line: string, cwd?: string): Promise<Completed> {
  const program = `function trident; $NODE $BIN $argv; end
source ${JSON.stringify(file)}
complete -C ${JSON.stringify(line)}`;
  return run('fish', ['--no-config', '-c', program], {}, cwd);
}

/** Runs the shell beside the sandboxes: they answer from this process, so the shell must not block it. */
async function run(shell: string, args: string[], extra: Record<string, string> = {}, cwd?: string): Promise<Completed> {
  const started = performance.now();
  const result = await execa(shell, args, { env: env(extra), extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000, cwd });
  return {
    values: String(result.stdout)
      .split('\n')
      .map((value) => value.replace(/\t.*$/, ''))
      .filter(Boolean),
    stderr: String(result.stderr),
    ms: performance.now() - started,
  };
}

describe('completion of values in bash', () => {
  it('profiles after --profile, and after config use', async () => {
    const bash = await scriptFile('bash');
    expect((await inBash(bash, ['trident', '--profile', ''])).values).toEqual(['default', 'stalled', 'work']);
    expect((await inBash(bash, ['trident', '--profile', 'w'])).values).toEqual(['work']);
    expect((await inBash(bash, ['trident', 'config', 'use', 's'])).values).toEqual(['stalled']);
  });

  it('setting keys for the key of config get and for each key of config set, and nothing of them for a value', async () => {
    const bash = await scriptFile('bash');
    expect((await inBash(bash, ['trident', 'config', 'get', ''])).values).toEqual(SETTING_KEYS);
    expect((await inBash(bash, ['trident', 'config', 'get', 'keys.url', ''])).values).toEqual([]);
    expect((await inBash(bash, ['trident', 'config', 'set', 'time.a'])).values).toEqual(['time.authScheme']);
    expect((await inBash(bash, ['trident', 'config', 'set', 'keys.url', ''])).values).toEqual([]);
    expect((await inBash(bash, ['trident', 'config', 'set', 'keys.keyId', 'K', 'keys.p'])).values).toEqual(['keys.privateKeyFile']);
    expect((await inBash(bash, ['trident', 'config', 'set', 'keys.keyId', 'K', 'keys.privateKeyFile', ''])).values).toEqual([]);
  });

  it("the catalog's stores after --store, from the profile named on the line", async () => {
    const bash = await scriptFile('bash');
    const before = catalog.server.requests.length;
    expect((await inBash(bash, ['trident', '--profile', 'work', 'catalog', 'products', '--store', ''])).values).toEqual(['fixprice']);
    expect(catalog.server.requests.slice(before).map((request) => request.path)).toEqual(['/sync/cursors']);
    // The default profile has no catalog: nothing offered, and nothing said.
    expect(await inBash(bash, ['trident', 'catalog', 'count', '--store', ''])).toMatchObject({ values: [], stderr: '' });
  });

  it('a catalog that never answers holds the TAB for about two seconds, and shows no error', async () => {
    const bash = await scriptFile('bash');
    const result = await inBash(bash, ['trident', '--profile', 'stalled', 'catalog', 'products', '--store', '']);
    expect(result).toMatchObject({ values: [], stderr: '' });
    expect(result.ms).toBeGreaterThan(1_500);
    expect(result.ms).toBeLessThan(8_000);
  });

  it('key ids for keys delete, kept a minute in a 0600 file of the config dir, asked again once stale', async () => {
    const bash = await scriptFile('bash');
    const extra = sandboxEnv(keys);
    const listed = () => keys.server.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/api_keys')).length;
    const ids = keys.control.listKeys().map((key) => key.api_key);
    const before = listed();
    expect((await inBash(bash, ['trident', 'keys', 'delete', ''], extra)).values.sort()).toEqual([...ids].sort());
    expect((await inBash(bash, ['trident', 'keys', 'delete', ids[0]!, ''], extra)).values.sort()).toEqual([...ids].sort());
    expect(listed() - before).toBe(1);
    const cache = join(configDir, 'completion', 'key-ids-default.json');
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    writeFileSync(cache, JSON.stringify({ at: Date.now() - 61_000, ids: ['stale-id'] }), { mode: 0o600 });
    expect((await inBash(bash, ['trident', 'keys', 'delete', ''], extra)).values.sort()).toEqual([...ids].sort());
    expect(listed() - before).toBe(2);
    expect(JSON.parse(readFileSync(cache, 'utf8')).ids.sort()).toEqual([...ids].sort());
  });

  it('__complete prints nothing, exit 0, for a kind it does not know or a service it cannot reach', async () => {
    const fresh = tempConfigDir();
    expect(await runCli(['__complete', 'planets'], { configDir: fresh })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await runCli(['__complete', 'key-ids'], { configDir: fresh })).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});

itWithTools(['zsh'], 'zsh offers the same values', async () => {
  const zsh = await scriptFile('zsh');
  expect((await inZsh(zsh, ['trident', '--profile', ''])).values).toEqual(['default', 'stalled', 'work']);
  expect((await inZsh(zsh, ['trident', 'config', 'get', ''])).values).toEqual(SETTING_KEYS);
  expect((await inZsh(zsh, ['trident', 'config', 'set', 'keys.keyId', 'K', ''])).values).toEqual(SETTING_KEYS);
  expect((await inZsh(zsh, ['trident', 'config', 'set', 'keys.keyId', ''])).values).toEqual([]);
  expect((await inZsh(zsh, ['trident', '--profile', 'work', 'catalog', 'products', '--store', ''])).values).toEqual(['fixprice']);
});

itWithTools(['fish'], 'fish offers the same values', async () => {
  const fish = await scriptFile('fish');
  expect((await inFish(fish, 'trident --profile ')).values).toEqual(['default', 'stalled', 'work']);
  expect((await inFish(fish, 'trident config get ')).values).toEqual([...SETTING_KEYS].sort());
  expect((await inFish(fish, 'trident config set keys.keyId K ')).values).toEqual([...SETTING_KEYS].sort());
  expect((await inFish(fish, 'trident config set keys.keyId ')).values).toEqual([]);
  expect((await inFish(fish, 'trident --profile work catalog products --store ')).values).toEqual(['fixprice']);
});

// Store names come from the catalog (over plain http, possibly), key ids from the keys service and the completion
// cache: a shell must offer them as words, never run what they say.
describe('completion of values a hostile service names', () => {
  const HOSTILE = ['$(touch${IFS}from-dollar)', '`touch from-backquote`', 'semi;touch${IFS}from-semicolon', '${HOME}', '*', 'a b'];
  const DROPPED = ['line\nbreak', 'escape\u001b]0;title\u0007'];
  let hostile: Server;
  let hostileUrl: string;

  beforeAll(async () => {
    hostile = createServer((request, response) => {
      const items = [...HOSTILE, ...DROPPED];
      const body = request.url?.startsWith('/sync/cursors')
        ? { items: items.map((parser_name) => ({ parser_name, ingested_at: null, product_id: null, updated_at: null })) }
        : { api_keys: items.map((api_key) => ({ api_key, name: 'x', scopes: ['read'] })) };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    const set = await runCli(['--profile', 'hostile', 'config', 'set', 'catalog.url', hostileUrl], { configDir });
    expect(set.exitCode, set.stderr).toBe(0);
  });
  afterAll(() => {
    hostile.closeAllConnections();
    hostile.close();
  });

  /** Each shell runs in a folder of its own, so that a value that ran a command would leave a file there. */
  const emptyFolder = () => mkdtempSync(join(tmpdir(), 'trident-hostile-'));
  const hostileStores = ['trident', '--profile', 'hostile', 'catalog', 'products', '--store'];

  it('bash offers store names and key ids as literal words, runs nothing, and drops values that are not one line', async () => {
    const bash = await scriptFile('bash');
    const cwd = emptyFolder();
    const extra = { ...sandboxEnv(keys), TRIDENT_KEYS_URL: hostileUrl };
    expect((await inBash(bash, [...hostileStores, ''], extra, cwd)).values.sort()).toEqual([...HOSTILE].sort());
    expect((await inBash(bash, [...hostileStores, '$('], extra, cwd)).values).toEqual(['$(touch${IFS}from-dollar)']);
    expect((await inBash(bash, ['trident', '--profile', 'hostile', 'keys', 'delete', ''], extra, cwd)).values.sort()).toEqual(
      [...HOSTILE].sort(),
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('bash offers what the key-id cache holds as literal words', async () => {
    const bash = await scriptFile('bash');
    const cwd = emptyFolder();
    writeFileSync(join(configDir, 'completion', 'key-ids-cached.json'), JSON.stringify({ at: Date.now(), ids: HOSTILE }), { mode: 0o600 });
    const ids = await inBash(bash, ['trident', '--profile', 'cached', 'keys', 'delete', ''], sandboxEnv(keys), cwd);
    expect(ids.values.sort()).toEqual([...HOSTILE].sort());
    expect(readdirSync(cwd)).toEqual([]);
  });

  itWithTools(['zsh'], 'zsh offers them as literal words and runs nothing', async () => {
    const zsh = await scriptFile('zsh');
    const cwd = emptyFolder();
    expect((await inZsh(zsh, [...hostileStores, ''], cwd)).values.sort()).toEqual([...HOSTILE].sort());
    expect(readdirSync(cwd)).toEqual([]);
  });

  itWithTools(['fish'], 'fish offers them as literal words and runs nothing', async () => {
    const fish = await scriptFile('fish');
    const cwd = emptyFolder();
    expect((await inFish(fish, `${hostileStores.join(' ')} `, cwd)).values.sort()).toEqual([...HOSTILE].sort());
    expect(readdirSync(cwd)).toEqual([]);
  });
});
