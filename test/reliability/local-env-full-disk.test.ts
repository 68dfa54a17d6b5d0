// A config dir on a full disk or a read-only file system (a 64 KiB tmpfs, filled or remounted read-only):
// exit 2 naming the file and what to do, never 1 "unexpected error", nothing half-written left for a later
// command to misread, and no key on the service that nobody holds.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, childEnv } from '../helpers/cli.js';
import { expectEveryKeyHeld, heldPublicKeys } from '../helpers/keys-sandbox.js';
import { envFor, errorOf, trident, useServices } from './harness.js';
import { allRequestsFrom, filesBelow, fillDisk, onTinyTmpfs, scratchDir, tmpfsProbe } from './local-env-helpers.js';

const services = useServices(['keys']);
const tmpfs = tmpfsProbe();
const NO_SPACE_HINT = 'free some space on that file system, then run the command again';

async function generate(configDir: string, name: string) {
  const sent = allRequestsFrom(services);
  const result = await trident(['keys', 'generate', '--name', name], { configDir, env: envFor.keys(services) });
  return { result, sent: sent() };
}

describe('keys generate on a full disk', () => {
  it.skipIf(!tmpfs.can)(`no room for the pending record: exit 2 naming it, nothing minted, nothing left behind${tmpfs.skipped}`, () =>
    onTinyTmpfs(async (dir) => {
      const freeAll = fillDisk(dir);
      const { result, sent } = await generate(dir, 'no-room-at-all');
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result)).toEqual({
        message: expect.stringMatching(new RegExp(`^cannot write ${dir}/pending/[0-9a-f]+\\.json: no space left on device$`)),
        hint: NO_SPACE_HINT,
      });
      expect(sent).toEqual([]);
      expect(filesBelow(dir)).toEqual([]);

      // With room again, nothing is left to settle and the key is made.
      freeAll();
      const again = await generate(dir, 'no-room-at-all');
      expect(again.result.exitCode, again.result.stderr).toBe(0);
      expect(again.sent).toEqual(['POST /trade-api/v2/api_keys/generate']);
      expect(expectEveryKeyHeld(services.keys, 'no-room-at-all', join(dir, 'keys'))).toHaveLength(1);
    }),
  );

  it.skipIf(!tmpfs.can)(
    `room for the pending record but not the key: exit 2 naming the key file, the key deleted again, nothing left behind${tmpfs.skipped}`,
    () =>
      onTinyTmpfs(async (dir) => {
        fillDisk(dir, 1);
        const { result, sent } = await generate(dir, 'no-room-for-the-key');
        expect(result.exitCode, result.stderr).toBe(2);
        const { message } = errorOf(result);
        expect(errorOf(result)).toEqual({
          message: expect.stringMatching(
            new RegExp(
              `^could not store the private key of the new key \\S+: cannot write ${dir}/keys/\\S+\\.pem: no space left on device; the key was deleted on the service again$`,
            ),
          ),
          hint: NO_SPACE_HINT,
        });
        expect(message).not.toContain('unexpected');
        expect(sent).toEqual(['POST /trade-api/v2/api_keys/generate', expect.stringMatching(/^DELETE \/trade-api\/v2\/api_keys\/\S+$/)]);
        expect(expectEveryKeyHeld(services.keys, 'no-room-for-the-key', join(dir, 'keys'))).toEqual([]);
        expect(filesBelow(dir)).toEqual([]);
      }),
  );
});

describe('config set where the settings cannot be written', () => {
  it.skipIf(!tmpfs.can)(
    `a read-only file system: exit 2 naming the file, the settings as they were and still readable${tmpfs.skipped}`,
    () =>
      onTinyTmpfs(async (dir) => {
        const settings = join(dir, 'settings.json');
        writeFileSync(settings, JSON.stringify({ profiles: { default: { output: 'table' } } }), { mode: 0o600 });
        execFileSync('mount', ['-o', 'remount,ro', dir]);
        const set = await trident(['config', 'set', 'output', 'json'], { configDir: dir });
        expect(set.exitCode, set.stderr).toBe(2);
        expect(errorOf(set)).toEqual({
          message: `cannot write ${settings}: read-only file system`,
          hint: 'that file system is mounted read-only: remount it read-write, or set TRIDENT_CONFIG_DIR to a directory on a writable one',
        });
        const get = await trident(['config', 'get', 'output'], { configDir: dir });
        expect(get.exitCode, get.stderr).toBe(0);
        expect(get.stdout).toBe('table\n');
      }),
  );

  it('a config dir its owner cannot write (root without the right to override permissions): exit 2 naming the file, nothing written', async () => {
    // setpriv drops the capabilities that let root write anyway, so that trident meets the directory's mode
    // as any user would; it runs from wherever the repository is, readable by its owner only or not.
    const parent = scratchDir(0o711);
    const dir = join(parent, 'config');
    mkdirSync(dir, { mode: 0o700 });
    const settings = join(dir, 'settings.json');
    writeFileSync(settings, '{}', { mode: 0o600 });
    chmodSync(dir, 0o500);
    const set = await execa(
      'setpriv',
      ['--bounding-set=-dac_override,-dac_read_search', process.execPath, BIN, 'config', 'set', 'output', 'json'],
      {
        env: childEnv({ configDir: dir }),
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      },
    );
    expect(set.exitCode, set.stderr).toBe(2);
    expect(errorOf({ exitCode: set.exitCode ?? -1, stdout: set.stdout, stderr: `${set.stderr}\n` })).toEqual({
      message: `cannot write ${settings}: permission denied`,
      hint: 'check the permissions of that path and of the directories above it',
    });
    expect(readFileSync(settings, 'utf8')).toBe('{}');
    expect(filesBelow(dir)).toEqual(['settings.json']);
  });
});

/** A profile in `dir` signing with a key of its own on the sandbox (a rotation deletes it: not the shared one). */
function profileIn(dir: string, name: string): { keyId: string; keyFile: string } {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = services.keys.control.addKey({
    name,
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  }).api_key;
  mkdirSync(join(dir, 'keys'), { mode: 0o700 });
  const keyFile = join(dir, 'keys', `${keyId}.pem`);
  writeFileSync(keyFile, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(
    join(dir, 'settings.json'),
    JSON.stringify({ profiles: { default: { 'keys.url': services.keys.url, 'keys.keyId': keyId, 'keys.privateKeyFile': keyFile } } }),
    { mode: 0o600 },
  );
  return { keyId, keyFile };
}

describe('keys rotate on a full disk', () => {
  // From no room at all to room for the journal and the record but not the key: whatever step the disk stops,
  // the error is exit 2 naming a file, and once there is room again, --resume or --abort (or nothing) leaves one
  // working key in the profile and no key that nobody holds.
  for (const pagesLeft of [0, 1, 2, 3]) {
    it.skipIf(!tmpfs.can)(`${pagesLeft} page(s) left: exit 2 naming the file; with room again nothing is lost${tmpfs.skipped}`, () =>
      onTinyTmpfs(async (dir) => {
        const name = `rotate-full-${pagesLeft}`;
        profileIn(dir, name);
        const freeAll = fillDisk(dir, pagesLeft);
        const rotated = await trident(['keys', 'rotate', '--yes', '-o', 'json'], { configDir: dir });
        if (rotated.exitCode !== 0) {
          expect(rotated.exitCode, rotated.stderr).toBe(2);
          // (after the steps' log lines)
          expect(rotated.stderr).toMatch(
            new RegExp(
              `(^|\\n)trident: (could not store the private key of the new key \\S+: )?cannot write ${dir}/\\S+: no space left on device`,
            ),
          );
          expect(rotated.stderr).not.toContain('unexpected');
        }
        freeAll();
        const list = await trident(['keys', 'list', '-o', 'json'], { configDir: dir });
        if (
          list.stderr.includes('in progress') ||
          filesBelow(dir).some((file) => file.startsWith('rotations/') && file.endsWith('.json'))
        ) {
          const resumed = await trident(['keys', 'rotate', '--resume', '--yes', '-o', 'json'], { configDir: dir });
          expect(resumed.exitCode, resumed.stderr).toBe(0);
        }
        // The old key, or the new one (named after it), and nothing else: each held here.
        const ofTest = services.keys.control.listKeys().filter((key) => key.name.startsWith(name));
        const heldHere = heldPublicKeys(join(dir, 'keys'));
        for (const key of ofTest)
          expect(heldHere.has(services.keys.control.publicKeyPem(key.api_key)!), `key ${key.name} is held`).toBe(true);
        const held = ofTest.map((key) => key.api_key);
        expect(held).toHaveLength(1);
        const settings = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as { profiles: { default: Record<string, string> } };
        expect(held).toEqual([settings.profiles.default['keys.keyId']]);
        const after = await trident(['keys', 'list'], { configDir: dir });
        expect(after.exitCode, after.stderr).toBe(0);
      }),
    );
  }
});
