// Private keys in the OS keyring: a real Secret Service (gnome-keyring on a D-Bus session of its own), and the
// keyrings that fail: none, one that never answers, one that is locked, an entry removed behind trident's back.
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import { tempConfigDir } from '../helpers/cli.js';
import { PRIVATE_KEY_MATERIAL, keyExists, keyFiles, keysNamed, pendingFiles, requestsFrom, runKeys } from '../helpers/keys-sandbox.js';
import { dirAccount, dirReference, KEYRING_TOOLS, startKeyringSession, type KeyringSession } from '../helpers/keyring-session.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { useKeysSandbox, useKeyringSession } from '../helpers/per-suite.js';

/** Every file under `dir`, read: no private key may be in any of them when it went to the keyring. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'utf8'));
}

const sandbox = useKeysSandbox();

describeWithTools(KEYRING_TOOLS, 'private keys in a real Secret Service', () => {
  const keyring = useKeyringSession();

  it('generate --use: the private key goes to the keyring, nowhere on disk or in any output, and signs keys list', async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'in-keyring', '--use', '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    const { api_key: id, private_key_file: place } = JSON.parse(made.stdout);
    expect(place).toBe(`${dirReference(configDir, `keys/${id}`)}`);
    expect(keyring.lookup(dirAccount(configDir, `keys/${id}`))).toMatch(/^-----BEGIN (RSA )?PRIVATE KEY-----\n/);
    expect(made.stdout + made.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    expect(made.stderr).not.toMatch(/keyring could not/);
    expect(keyFiles(configDir)).toEqual([]);
    for (const text of filesUnder(configDir)) expect(text).not.toMatch(PRIVATE_KEY_MATERIAL);

    // The profile names the entry; keys list signs with it, whatever the environment says of other keys.
    const sent = requestsFrom(sandbox);
    const listed = await runKeys(sandbox, ['list', '-o', 'json'], {
      configDir,
      env: { ...keyring.env, TRIDENT_KEY_ID: undefined, TRIDENT_PRIVATE_KEY_FILE: undefined },
    });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).find((key: { in_use: boolean }) => key.in_use).api_key).toBe(id);
    expect(sent()).toEqual([{ method: 'GET', path: expect.stringMatching(/\/api_keys/) }]);
  });

  it('create: the pair made here is staged as a file, then lives in the keyring only', async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['create', '--name', 'made-here', '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    const { api_key: id, private_key_file: place } = JSON.parse(made.stdout);
    expect(place).toBe(`${dirReference(configDir, `keys/${id}`)}`);
    expect(keyring.lookup(dirAccount(configDir, `keys/${id}`))).toMatch(/PRIVATE KEY/);
    expect(keyFiles(configDir)).toEqual([]);
    expect(made.stdout + made.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
  });

  it('generate --out <file> still writes that file', async () => {
    const configDir = tempConfigDir();
    const out = join(mkdtempSync(join(tmpdir(), 'trident-out-')), 'k.pem');
    const made = await runKeys(sandbox, ['generate', '--name', 'to-file', '--out', out, '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout).private_key_file).toBe(out);
    expect(readFileSync(out, 'utf8')).toMatch(/PRIVATE KEY/);
    expect(keyring.lookup(dirAccount(configDir, `keys/${JSON.parse(made.stdout).api_key}`))).toBeUndefined();
  });

  it("an entry removed behind trident's back: exit 4, one line naming it and a hint, nothing sent", async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'removed', '--use', '-o', 'json'], { configDir, env: keyring.env });
    expect(made.exitCode, made.stderr).toBe(0);
    const { api_key: id } = JSON.parse(made.stdout);
    keyring.clear(dirAccount(configDir, `keys/${id}`));
    const sent = requestsFrom(sandbox);
    const listed = await runKeys(sandbox, ['list'], {
      configDir,
      env: { ...keyring.env, TRIDENT_KEY_ID: undefined, TRIDENT_PRIVATE_KEY_FILE: undefined },
    });
    expect(listed.exitCode).toBe(4);
    expect(listed.stderr).toBe(
      `trident: missing credential: the private key ${dirReference(configDir, `keys/${id}`)} is not in the OS keyring\nhint: it was removed outside trident: point the profile at a key you hold (trident config set keys.privateKeyFile <file>) or make one (trident keys generate --use)\n`,
    );
    expect(sent()).toEqual([]);
  });
});

/** Where to store left to trident, as on a machine where nobody chose (the test helpers choose files). */
const AUTO = { TRIDENT_CREDENTIAL_STORE: 'auto' };

/** The fallback note, said once per config dir. */
const FALLBACK = /^warning: no OS keyring could be used \((.+)\): credentials go to 0600 files in /m;

describeWithTools(KEYRING_TOOLS, 'no keyring to use: files, said once', () => {
  let locked: KeyringSession;
  let silent: Server;
  let silentAddress: string;
  beforeAll(async () => {
    locked = await startKeyringSession({ unlocked: false });
    // A D-Bus peer that accepts the connection and never says a word.
    const socket = join(mkdtempSync(join(tmpdir(), 'trident-silent-bus-')), 'bus');
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(socket, resolve));
    silentAddress = `unix:path=${socket}`;
  });
  afterAll(async () => {
    await locked.stop();
    silent.close();
  });

  async function generateTwice(env: Record<string, string | undefined>, name: string) {
    const configDir = tempConfigDir();
    const first = await runKeys(sandbox, ['generate', '--name', name, '-o', 'json'], { configDir, env });
    const second = await runKeys(sandbox, ['generate', '--name', name, '-o', 'json'], { configDir, env });
    for (const run of [first, second]) {
      expect(run.exitCode, run.stderr).toBe(0);
      const { api_key: id, private_key_file: file } = JSON.parse(run.stdout);
      expect(file).toBe(join(configDir, 'keys', `${id}.pem`));
      expect(readFileSync(file, 'utf8')).toMatch(/PRIVATE KEY/);
    }
    expect(second.stderr).not.toMatch(FALLBACK);
    return first;
  }

  it('no D-Bus session: the keys go to files, and the first command says why', async () => {
    const first = await generateTwice(AUTO, 'no-bus');
    expect(first.stderr).toMatch(FALLBACK);
    expect(FALLBACK.exec(first.stderr)![1]).toMatch(/DBUS_SESSION_BUS_ADDRESS is not set/);
  });

  it('a locked keyring: files, said once', async () => {
    const first = await generateTwice(locked.env, 'locked');
    expect(FALLBACK.exec(first.stderr)?.[1]).toMatch(/^Couldn't access platform storage: Secret Service: /);
  });

  it('a keyring that never answers: files within the deadline, said once', async () => {
    const started = Date.now();
    const first = await generateTwice({ ...AUTO, DBUS_SESSION_BUS_ADDRESS: silentAddress }, 'silent');
    expect(FALLBACK.exec(first.stderr)?.[1]).toBe('the OS keyring did not answer within 5 s');
    // Two commands, of which only the first waits for the keyring's deadline (5 s).
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 40_000);

  it('a key in a keyring that never answers or is locked: exit 4 within the deadline, naming the entry and why', async () => {
    const configDir = tempConfigDir();
    const reference = dirReference(configDir, 'keys/held-elsewhere');
    for (const [env, why] of [
      [{ DBUS_SESSION_BUS_ADDRESS: silentAddress }, 'the OS keyring did not answer within 5 s'],
      [locked.env, 'No matching entry found in secure storage'],
    ] as const) {
      const started = Date.now();
      const run = await runKeys(sandbox, ['list', '-o', 'json'], { configDir, env: { ...env, TRIDENT_PRIVATE_KEY_FILE: reference } });
      // The silent one: the deadline (5 s), and the process exits although the keyring's thread never returns.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(run.exitCode, run.stderr).toBe(4);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')[0]).toMatch(
        why.startsWith('No matching')
          ? `trident: missing credential: the private key ${reference} is not in the OS keyring`
          : `trident: cannot read the private key ${reference}: ${why}`,
      );
    }
  }, 40_000);

  it('CI set, or TRIDENT_CREDENTIAL_STORE=file: files and no note', async () => {
    for (const env of [{ ...AUTO, CI: 'true', DBUS_SESSION_BUS_ADDRESS: silentAddress }, { TRIDENT_CREDENTIAL_STORE: 'file' }]) {
      const configDir = tempConfigDir();
      const started = Date.now();
      const run = await runKeys(sandbox, ['generate', '--name', 'quiet-file', '-o', 'json'], { configDir, env });
      expect(run.exitCode, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(FALLBACK);
      expect(JSON.parse(run.stdout).private_key_file).toBe(join(configDir, 'keys', `${JSON.parse(run.stdout).api_key}.pem`));
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  it('TRIDENT_CREDENTIAL_STORE=keyring with a locked keyring: exit 2 before anything is sent, no key made', async () => {
    const sent = requestsFrom(sandbox);
    const run = await runKeys(sandbox, ['generate', '--name', 'must-keyring'], {
      env: { ...locked.env, TRIDENT_CREDENTIAL_STORE: 'keyring' },
    });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(
      /^trident: TRIDENT_CREDENTIAL_STORE asks for the OS keyring, but it cannot be used: .+\nhint: unlock or start the keyring, or choose files: TRIDENT_CREDENTIAL_STORE=file\n$/,
    );
    expect(sent().filter((request) => request.method !== 'GET')).toEqual([]);
    expect(keysNamed(sandbox, 'must-keyring')).toEqual([]);
  });
});

describeWithTools(KEYRING_TOOLS, 'a key bound for the keyring, its process killed (the pending record settles it)', () => {
  const keyring = useKeyringSession();

  const settled = /^warning: settled 1 interrupted key request of an earlier run: (generate|create) "[^"]+": (.+)\n/m;

  for (const verb of ['generate', 'create'] as const) {
    it(`${verb} killed after storing: the next keys list keeps the key, its private half in the keyring`, async () => {
      const configDir = tempConfigDir();
      const name = `killed-${verb}`;
      const killed = await runKeys(sandbox, [verb, '--name', name], { configDir, env: { ...keyring.env, [CRASH_ENV]: 'stored' } });
      expect(killed.exitCode).not.toBe(0);
      const [made] = keysNamed(sandbox, name);
      expect(keyring.lookup(dirAccount(configDir, `keys/${made!.api_key}`))).toMatch(/PRIVATE KEY-----/);
      const listed = await runKeys(sandbox, ['list'], { configDir, env: keyring.env });
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(settled.exec(listed.stderr)?.[2]).toBe(
        `kept key ${made!.api_key}, its private key in ${dirReference(configDir, `keys/${made!.api_key}`)}`,
      );
      expect(keyExists(sandbox, made!.api_key)).toBe(true);
      expect(pendingFiles(configDir)).toEqual([]);
      expect(keyFiles(configDir)).toEqual([]);
    });
  }

  it('generate killed after the answer, before storing: the next keys list deletes the key nobody holds', async () => {
    const configDir = tempConfigDir();
    const killed = await runKeys(sandbox, ['generate', '--name', 'killed-answered'], {
      configDir,
      env: { ...keyring.env, [CRASH_ENV]: 'answered' },
    });
    expect(killed.exitCode).not.toBe(0);
    const [made] = keysNamed(sandbox, 'killed-answered');
    expect(keyring.lookup(dirAccount(configDir, `keys/${made!.api_key}`))).toBeUndefined();
    const listed = await runKeys(sandbox, ['list'], { configDir, env: keyring.env });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(settled.exec(listed.stderr)?.[2]).toBe(`deleted key ${made!.api_key}, whose private key never arrived`);
    expect(keyExists(sandbox, made!.api_key)).toBe(false);
    expect(pendingFiles(configDir)).toEqual([]);
  });
});
