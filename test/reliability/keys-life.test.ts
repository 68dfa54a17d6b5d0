// The life of a key under attack: two clients racing for one name while an answer is lost, a generate answer
// whose private key is broken, ids that would change a URL path (from the command line and from a hostile
// service), deleting the key in use, and two rotations of one key at once. Each case has a sandbox of its own.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import {
  expectEveryKeyHeld,
  keyExists,
  keyFiles,
  keysNamed,
  pendingFiles,
  runKeys,
  sandboxEnv,
  startSandbox,
} from '../helpers/keys-sandbox.js';
import { keysOfTest, profileWithKey } from '../helpers/keys-rotation.js';
import { errorOf, requestsFrom } from './harness.js';

async function withSandbox(use: (sandbox: KeysSandbox) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox();
  try {
    await use(sandbox);
  } finally {
    await sandbox.close();
  }
}

const UUID = '[0-9a-f-]{36}';
const named = keysNamed;
/** The name the one pending record in `configDir` sent (the name with its request's tag). */
const sentName = (configDir: string): string =>
  JSON.parse(readFileSync(join(configDir, 'pending', pendingFiles(configDir)[0]!), 'utf8')).sent_name;

describe.concurrent('two clients, one name, a lost answer', () => {
  it("A's generate loses its answer after minting while B creates a key of the same name: A deletes only its own key, proven by its tag", () =>
    withSandbox(async (sandbox) => {
      sandbox.server.faults.add({ method: 'POST', path: /\/generate$/, fault: { kind: 'hang', afterProcessing: true } });
      const hung = sandbox.server.faults.next();
      const sent = requestsFrom(sandbox.server);
      const configDirA = tempConfigDir();
      const jobA = runKeys(sandbox, ['generate', '--name', 'shared', '--timeout', '60'], { configDir: configDirA });
      await hung;
      const minted = keysNamed(sandbox, 'shared')[0]!.api_key;
      const jobB = await runKeys(sandbox, ['create', '--name', 'shared', '-o', 'json']);
      expect(jobB.exitCode, jobB.stderr).toBe(0);
      const ofB = JSON.parse(jobB.stdout).api_key as string;
      // Only now is A's answer lost (its connection dropped): the race does not depend on timing.
      sandbox.server.faults.clear();

      const a = await jobA;
      expect(a.exitCode).toBe(8);
      const { message, hint } = errorOf(a);
      expect(message).toMatch(
        new RegExp(
          `^the generate request for key "shared~[0-9a-f]{8}" failed \\(.*\\); a check found: deleted key ${minted}, whose private key never arrived$`,
        ),
      );
      expect(hint).toBe('nothing is left behind: run the command again');
      expect(sent().filter((request) => request.startsWith('DELETE'))).toEqual([`DELETE /trade-api/v2/api_keys/${minted}`]);
      expect(keyExists(sandbox, ofB)).toBe(true);
      expect(keyExists(sandbox, minted)).toBe(false);
      expect(pendingFiles(configDirA)).toEqual([]);
      // B still holds a working key
      const withB = await runKeys(sandbox, ['list', '--key-id', ofB, '--private-key', JSON.parse(jobB.stdout).private_key_file]);
      expect(withB.exitCode, withB.stderr).toBe(0);
    }));

  it("A's generate made nothing while B made a key of that name: A touches nothing and keeps its record for a late key", () =>
    withSandbox(async (sandbox) => {
      sandbox.server.faults.add({ method: 'POST', path: /\/generate$/, fault: { kind: 'hang' } });
      const hung = sandbox.server.faults.next();
      const sent = requestsFrom(sandbox.server);
      const configDirA = tempConfigDir();
      const jobA = runKeys(sandbox, ['generate', '--name', 'shared', '--scopes', 'read,write', '--timeout', '60'], {
        configDir: configDirA,
      });
      await hung;
      const jobB = await runKeys(sandbox, ['create', '--name', 'shared', '--scopes', 'read', '-o', 'json']);
      expect(jobB.exitCode, jobB.stderr).toBe(0);
      const ofB = JSON.parse(jobB.stdout).api_key as string;
      sandbox.server.faults.clear();
      const a = await jobA;
      expect(a.exitCode).toBe(8);
      expect(errorOf(a).message).toMatch(/; a check found no key of that request yet$/);
      expect(sent().filter((request) => request.startsWith('DELETE'))).toEqual([]);
      expect(keysNamed(sandbox, 'shared').map((key) => key.api_key)).toEqual([ofB]);
      expect(pendingFiles(configDirA)).toHaveLength(1);
      // A's next command checks again and still leaves B's key alone.
      const next = await runKeys(sandbox, ['list'], { configDir: configDirA });
      expect(next.exitCode, next.stderr).toBe(0);
      expect(keyExists(sandbox, ofB)).toBe(true);
    }));
});

describe.concurrent('a generate answer whose private key is broken', () => {
  for (const [what, mangle] of [
    ['a truncated PEM', (pem: string) => pem.slice(0, 300)],
    ['text that is no PEM', () => 'not a key'],
  ] as const) {
    it(`${what}: the key is deleted again, nothing stored, the profile untouched, exit 8`, () =>
      withSandbox(async (sandbox) => {
        sandbox.control.mangleGeneratedKeys(mangle);
        const configDir = tempConfigDir();
        const sent = requestsFrom(sandbox.server);
        const result = await runKeys(sandbox, ['generate', '--name', 'broken', '--use', '-o', 'json'], { configDir });
        expect(result.exitCode).toBe(8);
        const { message, hint } = errorOf(result);
        expect(message).toMatch(
          new RegExp(
            `^the keys service sent key (${UUID}) with a private key that is not usable \\(the private key in the answer .*\\); nothing was stored; the key was deleted on the service again$`,
          ),
        );
        expect(hint).toBe('no profile was changed: run the command again, and tell the service if it happens again');
        expect(sent()).toEqual([
          'POST /trade-api/v2/api_keys/generate',
          expect.stringMatching(new RegExp(`^DELETE /trade-api/v2/api_keys/${UUID}$`)),
        ]);
        expect(named(sandbox, 'broken')).toEqual([]);
        expect(keyFiles(configDir)).toEqual([]);
        expect(pendingFiles(configDir)).toEqual([]);
        expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
      }));
  }

  it('--out -: nothing reaches stdout', () =>
    withSandbox(async (sandbox) => {
      // 20 characters out of the first line of the key's body, whatever they are (a run of 20 letters, as this
      // once looked for, is missing from about one key in a hundred, which then stayed usable).
      sandbox.control.mangleGeneratedKeys((pem) => pem.replace(/(-----\n[A-Za-z0-9+/]{40})[A-Za-z0-9+/]{20}/, '$1'));
      const result = await runKeys(sandbox, ['generate', '--name', 'broken-out', '--out', '-']);
      expect(result.exitCode).toBe(8);
      expect(result.stdout).toBe('');
      expect(named(sandbox, 'broken-out')).toEqual([]);
    }));
});

describe.concurrent('ids that would change the URL path', () => {
  it('from the command line: refused before anything is sent, exit 2', () =>
    withSandbox(async (sandbox) => {
      const sent = requestsFrom(sandbox.server);
      for (const id of ['.', '..', 'a/b', '%2e%2e', 'a%2Fb', '..\\..', '']) {
        const result = await runKeys(sandbox, ['delete', id, '--yes']);
        expect(result.exitCode, id).toBe(2);
        expect(errorOf(result).message).toMatch(/^invalid key id ".*": it (is not a key id|holds a character a key id cannot have .*)$/);
      }
      expect(sent()).toEqual([]);
    }));

  it('from a generate answer: the id ".." never reaches a request or a file name; the key really made is found and deleted', () =>
    withSandbox(async (sandbox) => {
      const payload = JSON.stringify({ api_key: { api_key: '..', name: 'hostile', scopes: ['read', 'write'] }, private_key: 'x' });
      sandbox.server.faults.add({
        method: 'POST',
        path: /\/generate$/,
        fault: { kind: 'body', status: 201, payload, afterProcessing: true },
      });
      const sent = requestsFrom(sandbox.server);
      const configDir = tempConfigDir();
      const result = await runKeys(sandbox, ['generate', '--name', 'hostile'], { configDir });
      expect(result.exitCode).toBe(8);
      expect(errorOf(result).message).toMatch(
        new RegExp(
          `^the generate request for key "hostile~[0-9a-f]{8}" failed \\(the keys service answered 201 with a key id that is not a key id: "\\.\\."\\); a check found: deleted key ${UUID}, whose private key never arrived$`,
        ),
      );
      expect(sent()).toEqual([
        'POST /trade-api/v2/api_keys/generate',
        'GET /trade-api/v2/api_keys',
        expect.stringMatching(new RegExp(`^DELETE /trade-api/v2/api_keys/${UUID}$`)),
      ]);
      expect(named(sandbox, 'hostile')).toEqual([]);
      expect(keyFiles(configDir)).toEqual([]);
    }));

  it('from a list during the settlement: the candidate "../x" is not deleted, the outcome is reported unknown', () =>
    withSandbox(async (sandbox) => {
      sandbox.server.faults.add({ method: 'POST', path: /\/generate$/, fault: { kind: 'reset', afterProcessing: true } });
      // The check's list names the request's own (tagged) name, under an id that would climb out of the path.
      void sandbox.server.faults.next().then(() => {
        const [made] = keysNamed(sandbox, 'listed');
        const payload = JSON.stringify({
          api_keys: [{ api_key: '../x', name: made!.name, scopes: ['read', 'write'], created_ts: 'now', subaccount: null }],
        });
        sandbox.server.faults.add({ method: 'GET', path: /\/api_keys$/, fault: { kind: 'body', status: 200, payload } });
      });
      const sent = requestsFrom(sandbox.server);
      const result = await runKeys(sandbox, ['generate', '--name', 'listed']);
      expect(result.exitCode).toBe(8);
      expect(errorOf(result).message).toMatch(
        /^outcome unknown: .*; a check found: outcome unknown for key \.\.\/x \(named "listed~[0-9a-f]{8}"\), which trident cannot prove its own, so it was not deleted$/,
      );
      expect(sent()).toEqual(['POST /trade-api/v2/api_keys/generate', 'GET /trade-api/v2/api_keys']);
    }));
});

describe.concurrent('keys delete and the key in use', () => {
  it('refuses the key in use (exit 2, nothing sent), deletes it with --force; the 401 after that does not blame environments', () =>
    withSandbox(async (sandbox) => {
      const configDir = tempConfigDir();
      await runCli(['config', 'set', 'keys.url', sandbox.url], { configDir });
      const made = await runKeys(sandbox, ['generate', '--name', 'in-use', '--use', '-o', 'json'], { configDir });
      expect(made.exitCode, made.stderr).toBe(0);
      const id = JSON.parse(made.stdout).api_key as string;
      const sent = requestsFrom(sandbox.server);
      // The profile alone: no key in the environment
      const refused = await runCli(['keys', 'delete', id, '--yes'], { configDir });
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toBe(
        `trident: key ${id} is the key in use (profile "default"): deleting it would leave nothing to sign the next request with\nhint: replace it with trident keys rotate, or pass --force to delete it anyway\n`,
      );
      expect(sent()).toEqual([]);
      expect(keyExists(sandbox, id)).toBe(true);

      const forced = await runCli(['keys', 'delete', id, '--yes', '--force', '-o', 'json'], { configDir });
      expect(forced.exitCode, forced.stderr).toBe(0);
      expect(JSON.parse(forced.stdout)).toEqual([{ api_key: id, deleted: true, result: 'deleted' }]);
      expect(keyExists(sandbox, id)).toBe(false);

      const locked = await runCli(['keys', 'list'], { configDir });
      expect(locked.exitCode).toBe(4);
      const { hint } = errorOf(locked);
      expect(hint).toMatch(
        new RegExp(
          `^key ${id} is unknown to this service: it may have been deleted, or belong to another service; check --key-id and --url`,
        ),
      );
      expect(hint).not.toMatch(/environment/);
    }));

  it('the key in use from TRIDENT_KEY_ID is refused too, and other keys are deleted as before', () =>
    withSandbox(async (sandbox) => {
      const result = await runKeys(sandbox, ['delete', sandbox.bootstrap.keyId, '--yes']);
      expect(result.exitCode).toBe(2);
      expect(errorOf(result).message).toBe(
        `key ${sandbox.bootstrap.keyId} is the key in use (TRIDENT_KEY_ID): deleting it would leave nothing to sign the next request with`,
      );
      expect(keyExists(sandbox, sandbox.bootstrap.keyId)).toBe(true);
    }));
});

describe('one rotation per key, whoever owns it', () => {
  it("a profile's rotation and an environment rotation of the same key started at once: one runs, the other is refused", () =>
    withSandbox(async (sandbox) => {
      const setup = profileWithKey(sandbox);
      // Both pass their checks before either writes its journal: the preflight lists wait, and the winner's
      // generate takes long enough for the loser to find its journal.
      sandbox.server.faults.add({ method: 'GET', path: /\/api_keys$/, fault: { kind: 'delay', ms: 1500 }, times: 2 });
      sandbox.server.faults.add({ method: 'POST', path: /\/generate$/, fault: { kind: 'delay', ms: 2000 } });
      const env = { TRIDENT_KEYS_URL: sandbox.url, TRIDENT_KEY_ID: setup.oldId, TRIDENT_PRIVATE_KEY_FILE: setup.oldFile };
      // The environment's rotation keeps the old key: without --keep-old it is refused at once, the profile using
      // that key too (profile-key-change.test.ts), and would not race at all.
      const [ofProfile, ofEnv] = await Promise.all([
        runCli(['--profile', setup.profile, 'keys', 'rotate', '--yes', '-o', 'json'], { configDir: setup.configDir }),
        runCli(['keys', 'rotate', '--keep-old', '--yes', '-o', 'json'], { configDir: setup.configDir, env }),
      ]);
      const results = [ofProfile, ofEnv];
      expect(results.map((result) => result.exitCode).sort(), results.map((result) => result.stderr).join('\n')).toEqual([0, 2]);
      const loser = results.find((result) => result.exitCode === 2)!;
      // (after its preflight step's log line)
      expect(loser.stderr).toMatch(
        /(^|\n)trident: (a rotation of (profile "ci"|key [\w-]+ \(from flags or the environment\)) is in progress .*\nhint: finish it with trident keys rotate --resume, or undo it with trident keys rotate --abort|another trident process \(pid \d+\) is working on this rotation .*\nhint: let it finish; .*)\n$/,
      );
      // One replacement key; the old one gone when the profile's rotation won, kept when the environment's did
      const left = keysOfTest(sandbox, setup).map((key) => key.api_key);
      const profileWon = ofProfile.exitCode === 0;
      expect(left).toHaveLength(profileWon ? 1 : 2);
      expect(left.includes(setup.oldId)).toBe(!profileWon);
      expect(existsSync(setup.journal)).toBe(false);
    }));
});

describe.concurrent('a lost answer whose check fails too: the record waits for the next command', () => {
  for (const verb of ['generate', 'create'] as const) {
    it(`${verb}: exit 8 "outcome unknown" now; the next keys list settles it`, () =>
      withSandbox(async (sandbox) => {
        const configDir = tempConfigDir();
        const name = `unsure-${verb}`;
        sandbox.server.faults.add({ method: 'POST', path: /\/api_keys(\/generate)?$/, fault: { kind: 'reset', afterProcessing: true } });
        // every check after the lost answer fails
        sandbox.server.faults.add({ method: 'GET', path: /\/api_keys$/, times: 2, fault: { kind: 'status', status: 503 } });
        const lost = await runKeys(sandbox, [verb, '--name', name, '--retries', '0'], { configDir });
        expect(lost.exitCode).toBe(8);
        expect(errorOf(lost).message).toMatch(
          new RegExp(
            `^outcome unknown: the ${verb} request for key "${name}~[0-9a-f]{8}" was sent but its answer never came, and it was not repeated`,
          ),
        );
        expect(pendingFiles(configDir)).toHaveLength(1);
        const [made] = named(sandbox, name);

        const list = await runKeys(sandbox, ['list'], { configDir });
        expect(list.exitCode, list.stderr).toBe(0);
        const settled =
          verb === 'generate'
            ? `deleted key ${made!.api_key}, whose private key never arrived`
            : `kept key ${made!.api_key}, its private key in ${join(configDir, 'keys', `${made!.api_key}.pem`)}`;
        expect(list.stderr).toBe(`warning: settled 1 interrupted key request of an earlier run: ${verb} "${made!.name}": ${settled}\n`);
        expect(pendingFiles(configDir)).toEqual([]);
        expect(expectEveryKeyHeld(sandbox, name, join(configDir, 'keys'))).toEqual(verb === 'generate' ? [] : [made!.api_key]);
        expect(keyFiles(configDir)).toEqual(verb === 'generate' ? [] : [`${made!.api_key}.pem`]);
      }));
  }
});

describe('keys commands against a service with nothing pending', () => {
  it('list sends one request and says nothing more', () =>
    withSandbox(async (sandbox) => {
      const sent = requestsFrom(sandbox.server);
      const result = await runCli(['keys', 'list'], { env: sandboxEnv(sandbox) });
      expect([result.exitCode, result.stderr]).toEqual([0, '']);
      expect(sent()).toEqual(['GET /trade-api/v2/api_keys']);
    }));
});

describe.concurrent('a key the service makes after the check (a gateway that answered first)', () => {
  const spki = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('generate: a 504 came first, no key was listed yet; the key made later is deleted by the next keys command', () =>
    withSandbox(async (sandbox) => {
      const configDir = tempConfigDir();
      sandbox.server.faults.add({ method: 'POST', path: /\/generate$/, fault: { kind: 'status', status: 504 } });
      const first = await runKeys(sandbox, ['generate', '--name', 'late'], { configDir });
      expect(first.exitCode).toBe(8);
      expect(errorOf(first).message).toMatch(
        /^the generate request for key "late~[0-9a-f]{8}" failed \(keys service answered 504.*\); a check found no key of that request yet$/,
      );
      expect(pendingFiles(configDir)).toHaveLength(1);
      // The service finishes the key only now; nobody holds its private half.
      const late = sandbox.control.addKey({ name: sentName(configDir), publicKeyPem: spki(), scopes: ['read', 'write'] });
      const sent = requestsFrom(sandbox.server);
      const next = await runKeys(sandbox, ['list', '-o', 'json'], { configDir });
      expect(next.exitCode, next.stderr).toBe(0);
      expect(next.stderr).toBe(
        `warning: settled 1 interrupted key request of an earlier run: generate "${late.name}": deleted key ${late.api_key}, whose private key never arrived\n`,
      );
      expect(sent()).toContain(`DELETE /trade-api/v2/api_keys/${late.api_key}`);
      expect(named(sandbox, 'late')).toEqual([]);
      expect(pendingFiles(configDir)).toEqual([]);
    }));

  it('create: a 502 came first; the key made later from the staged public half is kept with its private key', () =>
    withSandbox(async (sandbox) => {
      const configDir = tempConfigDir();
      sandbox.server.faults.add({ method: 'POST', path: /\/api_keys$/, fault: { kind: 'status', status: 502 } });
      const first = await runKeys(sandbox, ['create', '--name', 'late-pair'], { configDir });
      expect(first.exitCode).toBe(8);
      expect(errorOf(first).message).toMatch(/; a check found no key of that request yet$/);
      const [staged] = keyFiles(configDir);
      expect(staged).toMatch(/^pending-.*\.pem$/);
      const publicKeyPem = createPublicKey(readFileSync(join(configDir, 'keys', staged!), 'utf8'))
        .export({ type: 'spki', format: 'pem' })
        .toString();
      const late = sandbox.control.addKey({ name: sentName(configDir), publicKeyPem, scopes: ['read', 'write'] });
      const next = await runKeys(sandbox, ['list'], { configDir });
      expect(next.exitCode, next.stderr).toBe(0);
      const kept = join(configDir, 'keys', `${late.api_key}.pem`);
      expect(next.stderr).toBe(
        `warning: settled 1 interrupted key request of an earlier run: create "${late.name}": kept key ${late.api_key}, its private key in ${kept}\n`,
      );
      expect(keyFiles(configDir)).toEqual([`${late.api_key}.pem`]);
      expectEveryKeyHeld(sandbox, 'late-pair', join(configDir, 'keys'));
      expect(pendingFiles(configDir)).toEqual([]);
    }));
});
