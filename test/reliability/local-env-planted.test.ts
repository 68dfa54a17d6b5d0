// Pending records and rotation journals decide which key trident deletes and which command a --resume runs:
// one that someone else could have planted (a pending/ or rotations/ writable by others, a record or journal
// that is a link or not the user's) is refused with exit 2 naming it, and nothing is sent, deleted or run.
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envFor, errorOf, trident, useServices } from './harness.js';
import { allRequestsFrom, copyOfKey, scratchDir } from './local-env-helpers.js';

const services = useServices(['keys']);
const OTHER_UID = 4242;

/** A config dir whose profile signs with a copy of the sandbox's key, in <config dir>/keys/. */
function profile(): { configDir: string; keyFile: string; keyId: string } {
  const configDir = join(scratchDir(), 'config');
  mkdirSync(join(configDir, 'keys'), { recursive: true, mode: 0o700 });
  const keyFile = copyOfKey(services, join(configDir, 'keys'));
  const { keyId } = services.keys.bootstrap;
  writeFileSync(
    join(configDir, 'settings.json'),
    JSON.stringify({ profiles: { default: { 'keys.url': services.keys.url, 'keys.keyId': keyId, 'keys.privateKeyFile': keyFile } } }),
    { mode: 0o600 },
  );
  return { configDir, keyFile, keyId };
}

const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

/** A record that, if trusted, has the next keys command delete the key in use (its name, a dead writer, no file). */
function plantRecord(configDir: string, mode: { dir: number; file: number }): string {
  const dir = join(configDir, 'pending');
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode.dir);
  const key = services.keys.control.listKeys().find((k) => k.api_key === services.keys.bootstrap.keyId)!;
  const record = {
    version: 2,
    verb: 'generate',
    name: key.name,
    sent_name: key.name,
    url: services.keys.url,
    written_at: '2020-01-01T00:00:00.000Z',
    pid: deadPid(),
    scopes: key.scopes,
    target_file: join(scratchDir(), 'nowhere.pem'),
  };
  const path = join(dir, '00ff00ff00ff00ff.json');
  writeFileSync(path, JSON.stringify(record), { mode: mode.file });
  chmodSync(path, mode.file);
  return path;
}

/** A journal that, if trusted, has the next --resume run `touch <marker>` as its deploy hook. */
function plantJournal(
  configDir: string,
  keyId: string,
  keyFile: string,
  mode: { dir: number; file: number },
): { path: string; marker: string } {
  const dir = join(configDir, 'rotations');
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode.dir);
  const marker = join(scratchDir(), 'hook-ran');
  const now = new Date().toISOString();
  const journal = {
    version: 2,
    id: 'planted',
    started_at: now,
    updated_at: now,
    phase: 'verified',
    owner: { mode: 'profile', profile: 'default' },
    url: services.keys.url,
    method: 'generate',
    keep_old: true,
    hooks: { deploy: `touch ${marker}`, timeout_s: 5 },
    old_key: {
      api_key: keyId,
      name: 'x',
      scopes: ['read', 'write'],
      created_ts: now,
      subaccount: null,
      private_key_file: keyFile,
      file_created_by_trident: false,
    },
    new_name: 'x',
    new_key: { api_key: keyId, name: 'x', scopes: ['read', 'write'], created_ts: now, subaccount: null },
    staging_dir: dir,
    target_file: null,
    private_key_file: keyFile,
    old_key_deleted: false,
    steps: [],
    warnings: [],
  };
  const path = join(dir, `key-${keyId}.json`);
  writeFileSync(path, JSON.stringify(journal), { mode: mode.file });
  chmodSync(path, mode.file);
  return { path, marker };
}

describe('a planted pending record', () => {
  it('in a pending/ others can write (777): keys list exits 2 naming it; the key in use is not deleted', async () => {
    const { configDir, keyId } = profile();
    plantRecord(configDir, { dir: 0o777, file: 0o600 });
    const sent = allRequestsFrom(services);
    const result = await trident(['keys', 'list'], { configDir });
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result).message).toBe(
      `pending records directory ${join(configDir, 'pending')} can be written by other users (mode 777): refused`,
    );
    expect(sent()).toEqual([]);
    expect(services.keys.control.listKeys().some((key) => key.api_key === keyId)).toBe(true);
  });

  it('a record others can write, or owned by another user, or a link: exit 2 naming it, nothing sent', async () => {
    const spoils: Array<[string, (path: string) => void, RegExp]> = [
      ['mode 666', (path) => chmodSync(path, 0o666), /can be written by other users \(mode 666\): refused$/],
      ['another user', (path) => chownSync(path, OTHER_UID, OTHER_UID), /belongs to another user \(uid 4242\): refused$/],
      [
        'a link',
        (path) => {
          const elsewhere = join(scratchDir(), 'record.json');
          writeFileSync(elsewhere, '{}', { mode: 0o600 });
          chmodSync(path, 0o600);
          unlinkSync(path);
          symlinkSync(elsewhere, path);
        },
        /is a symbolic link: refused$/,
      ],
    ];
    for (const [what, spoil, message] of spoils) {
      const { configDir } = profile();
      const path = plantRecord(configDir, { dir: 0o700, file: 0o600 });
      spoil(path);
      const sent = allRequestsFrom(services);
      const result = await trident(['keys', 'list'], { configDir });
      expect(result.exitCode, `${what}: ${result.stderr}`).toBe(2);
      expect(errorOf(result).message).toMatch(
        new RegExp(`^pending record ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${message.source}`),
      );
      expect(sent()).toEqual([]);
    }
  });
});

describe('a planted rotation journal', () => {
  for (const [what, mode, message] of [
    [
      'in a rotations/ others can write (777)',
      { dir: 0o777, file: 0o600 },
      (dir: string) => `rotations directory ${dir} can be written by other users (mode 777): refused`,
    ],
    [
      'others can write (666)',
      { dir: 0o700, file: 0o666 },
      (dir: string, path: string) => `rotation journal ${path} can be written by other users (mode 666): refused`,
    ],
  ] as const) {
    it(`${what}: keys rotate --resume exits 2 naming it; its hook never runs`, async () => {
      const { configDir, keyId, keyFile } = profile();
      const { path, marker } = plantJournal(configDir, keyId, keyFile, mode);
      const sent = allRequestsFrom(services);
      const result = await trident(['keys', 'rotate', '--resume', '--yes'], { configDir, env: envFor.keys(services) });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result).message).toBe(message(join(configDir, 'rotations'), path));
      expect(sent()).toEqual([]);
      expect(existsSync(marker)).toBe(false);
    });
  }
});
