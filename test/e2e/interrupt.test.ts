// Ctrl-C and SIGTERM: trident stops with exit 130 and one line, except between asking the keys service for
// a new key and storing its private half, where stopping would leave a key nobody holds: there it finishes
// first (a second interrupt stops at once).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { smallCatalog, startSandbox as startCatalog } from '../helpers/catalog-fixtures.js';
import { keyFiles, keysNamed, sandboxEnv, startSandbox as startKeys } from '../helpers/keys-sandbox.js';
import { profileWithKey, spawnRotate } from '../helpers/keys-rotation.js';
import { waitForFile } from '../helpers/processes.js';

let keys: KeysSandbox;
let catalog: CatalogSandbox;

beforeAll(async () => {
  [keys, catalog] = await Promise.all([startKeys(), startCatalog(smallCatalog())]);
});
afterAll(async () => {
  await Promise.all([keys.close(), catalog.close()]);
});

describe('interrupts', () => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} while the service mints a key: the key is stored first, then trident stops (exit 130)`, async () => {
      const configDir = tempConfigDir();
      const name = `interrupted-${signal}`;
      keys.server.faults.add({ method: 'POST', path: /api_keys\/generate$/, fault: { kind: 'delay', ms: 800, afterProcessing: true } });
      const child = spawnCli(['keys', 'generate', '--name', name], { configDir, env: sandboxEnv(keys) });
      await keys.server.faults.next(); // minted; the answer is on its way
      child.kill(signal);
      const result = await child;
      expect(result.exitCode, String(result.stderr)).toBe(130);
      const minted = keysNamed(keys, name)[0]!;
      const file = join(configDir, 'keys', `${minted.api_key}.pem`);
      expect(String(result.stderr)).toBe(
        'trident: interrupted: finishing making the key first (interrupt again to stop at once; the key may then be left on the service)\n' +
          `trident: interrupted after key ${minted.api_key} was made: its private key is in ${file}\n` +
          `hint: keep it, or delete it with trident keys delete ${minted.api_key}\n`,
      );
      // The stored private key is that key's: a request signed with it is accepted.
      const signed = await runCli(['keys', 'list', '--key-id', minted.api_key, '--private-key', file, '-o', 'json'], {
        configDir,
        env: { TRIDENT_KEYS_URL: keys.url },
      });
      expect(signed.exitCode, signed.stderr).toBe(0);
    });
  }

  it('SIGINT while a key made here is uploaded: its private key is put in place first', async () => {
    const configDir = tempConfigDir();
    keys.server.faults.add({ method: 'POST', path: /api_keys$/, fault: { kind: 'delay', ms: 800, afterProcessing: true } });
    const child = spawnCli(['keys', 'create', '--name', 'interrupted-create'], { configDir, env: sandboxEnv(keys) });
    await keys.server.faults.next();
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode, String(result.stderr)).toBe(130);
    const made = keysNamed(keys, 'interrupted-create')[0]!;
    expect(String(result.stderr)).toContain(
      `trident: interrupted after key ${made.api_key} was made: its private key is in ${join(configDir, 'keys', `${made.api_key}.pem`)}\n`,
    );
    expect(keyFiles(configDir)).toEqual([`${made.api_key}.pem`]);
  });

  it('SIGTERM once the key is stored but before it is reported: the message still names the key and its file', async () => {
    const configDir = tempConfigDir();
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const file = join(dirname(configDir), 'stored-unreported.pem');
    // Another trident (this test, alive) holds the settings lock, under which the new key's age is recorded
    // after its private half is stored: the command waits there, its key made and not yet reported.
    writeFileSync(join(configDir, 'settings.json.lock'), `${process.pid}\n`, { mode: 0o600 });
    const child = spawnCli(['keys', 'generate', '--name', 'stored-unreported', '--out', file, '-o', 'json'], {
      configDir,
      env: sandboxEnv(keys),
    });
    await waitForFile(file);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode, String(result.stderr)).toBe(130);
    const made = keysNamed(keys, 'stored-unreported')[0]!;
    expect(String(result.stderr)).toBe(
      'trident: interrupted (SIGTERM)\n' +
        `hint: key ${made.api_key} was made: its private key is in ${file}; keep it, or delete it with trident keys delete ${made.api_key}\n`,
    );
    expect(String(result.stdout)).toBe('');
    const signed = await runCli(['keys', 'list', '--key-id', made.api_key, '--private-key', file, '-o', 'json'], {
      configDir: tempConfigDir(),
      env: { TRIDENT_KEYS_URL: keys.url },
    });
    expect(signed.exitCode, signed.stderr).toBe(0);
  });

  it('a second interrupt stops at once', async () => {
    const configDir = tempConfigDir();
    keys.server.faults.add({ method: 'POST', path: /api_keys\/generate$/, fault: { kind: 'delay', ms: 3000, afterProcessing: true } });
    const child = spawnCli(['keys', 'generate', '--name', 'forced'], { configDir, env: sandboxEnv(keys) });
    await keys.server.faults.next();
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr).trimEnd().split('\n').at(-1)).toBe('trident: interrupted');
    expect(keyFiles(configDir)).toEqual([]); // stopped before the answer came: nothing stored
  });

  it('Ctrl-C still works after settings were written (their lock library listens for signals too)', async () => {
    const setup = profileWithKey(keys);
    // The rotation switches the profile (a settings write), then deletes the old key: that delete hangs.
    keys.server.faults.add({ method: 'DELETE', path: new RegExp(`${setup.oldId}$`), fault: { kind: 'hang' } });
    const child = spawnRotate(setup, ['--yes', '-o', 'json']);
    await keys.server.faults.next();
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    // The last lines: the interrupt, and where the rotation stands with how to go on.
    const [interrupted, hint] = String(result.stderr).trimEnd().split('\n').slice(-2);
    expect(interrupted).toBe('trident: interrupted');
    expect(hint).toBe(
      `hint: the rotation is paused at step "deleting-old" (journal ${setup.journal}): trident keys rotate --resume finishes it, trident keys rotate --abort undoes it`,
    );
  });

  it('SIGTERM anywhere else stops at once with one line', async () => {
    catalog.server.faults.add({ path: '/products', fault: { kind: 'hang' } });
    const child = spawnCli(['catalog', 'products'], { env: { TRIDENT_CATALOG_URL: catalog.url } });
    await catalog.server.faults.next();
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toBe('trident: interrupted (SIGTERM)\n');
    expect(String(result.stdout)).toBe('');
  });
});
