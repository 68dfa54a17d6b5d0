import { chmodSync, chownSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInConfigDir, listConfigDir, readConfigFile } from '../../../src/core/files/config-files.js';
import { withFileTrust } from '../../../src/core/files/file-trust.js';

const OTHER_UID = 4242;
const INSECURE = { TRIDENT_INSECURE_CONFIG: '1' };

/** A config dir (0700) with `pending/` (0700) holding `a.json` and `b.json` (0600). */
function configDir(): { dir: string; pending: string; record: string } {
  const dir = join(mkdtempSync(join(tmpdir(), 'trident-config-files-')), 'config');
  const pending = join(dir, 'pending');
  mkdirSync(pending, { recursive: true, mode: 0o700 });
  for (const name of ['b.json', 'a.json']) writeFileSync(join(pending, name), `{"${name}":1}`, { mode: 0o600 });
  return { dir, pending, record: join(pending, 'a.json') };
}

const refusal = (what: () => unknown) => {
  try {
    what();
  } catch (error) {
    return { exitCode: (error as { exitCode?: number }).exitCode, message: (error as Error).message };
  }
  return undefined;
};

describe('files trident keeps in its config dir (core/files/config-files.ts)', () => {
  it('reads and lists them; a missing file, directory or config dir is undefined or empty', () => {
    const { dir, record } = configDir();
    expect(readConfigFile(dir, record, 'pending record')).toBe('{"a.json":1}');
    expect(listConfigDir(dir, 'pending', 'pending records directory')).toEqual(['a.json', 'b.json']);
    expect(readConfigFile(dir, join(dir, 'pending', 'missing.json'), 'pending record')).toBeUndefined();
    expect(readConfigFile(dir, join(dir, 'rotations', 'x.json'), 'rotation journal')).toBeUndefined();
    expect(listConfigDir(dir, 'rotations', 'rotations directory')).toEqual([]);
    expect(readConfigFile(join(dir, 'nowhere'), join(dir, 'nowhere', 'settings.json'), 'settings file')).toBeUndefined();
    const notADir = join(dir, 'file');
    writeFileSync(notADir, '', { mode: 0o600 });
    expect(readConfigFile(notADir, join(notADir, 'settings.json'), 'settings file')).toBeUndefined();
  });

  const spoilers: Array<[string, (paths: ReturnType<typeof configDir>) => string]> = [
    [
      'a group-writable directory on the way',
      ({ pending }) => (chmodSync(pending, 0o770), `directory ${pending} can be written by other users (mode 770): refused`),
    ],
    [
      'a sticky directory others can write',
      ({ pending }) => (chmodSync(pending, 0o1777), `directory ${pending} can be written by other users (mode 777): refused`),
    ],
    [
      'a directory of another user',
      ({ pending }) => (
        chownSync(pending, OTHER_UID, OTHER_UID),
        `directory ${pending} belongs to another user (uid ${OTHER_UID}): refused`
      ),
    ],
    [
      'a directory that is a link',
      ({ dir, pending }) => {
        const elsewhere = mkdtempSync(join(tmpdir(), 'trident-elsewhere-'));
        execFileSync('mv', [pending, join(elsewhere, 'pending')]);
        symlinkSync(join(elsewhere, 'pending'), pending);
        return `directory ${join(dir, 'pending')} is a symbolic link: refused`;
      },
    ],
    [
      'a file in place of the directory',
      ({ pending }) => (execFileSync('rm', ['-r', pending]), writeFileSync(pending, ''), `${pending} is not a directory: refused`),
    ],
    [
      'a config dir others can write',
      ({ dir }) => (chmodSync(dir, 0o777), `config directory ${dir} can be written by other users (mode 777): refused`),
    ],
  ];

  it.each(spoilers)(
    'refuses both the file and the listing with %s (exit 2 naming it); TRIDENT_INSECURE_CONFIG=1 lets them through',
    (_, spoil) => {
      const paths = configDir();
      const message = spoil(paths);
      const what =
        message.startsWith('config directory') || message.endsWith('is not a directory: refused')
          ? message
          : message.replace(/^directory/, 'pending records directory');
      expect(refusal(() => readConfigFile(paths.dir, paths.record, 'pending record'))).toEqual({ exitCode: 2, message });
      expect(refusal(() => listConfigDir(paths.dir, 'pending', 'pending records directory'))).toEqual({ exitCode: 2, message: what });
      withFileTrust(INSECURE, () => expect(() => listConfigDir(paths.dir, 'pending', 'pending records directory')).not.toThrow());
    },
  );

  const fileSpoilers: Array<[string, (record: string) => string]> = [
    [
      'group-writable',
      (record) => (chmodSync(record, 0o620), `pending record ${record} can be written by other users (mode 620): refused`),
    ],
    [
      'of another user',
      (record) => (chownSync(record, OTHER_UID, OTHER_UID), `pending record ${record} belongs to another user (uid ${OTHER_UID}): refused`),
    ],
    [
      'a link to a good file elsewhere',
      (record) => {
        const elsewhere = join(mkdtempSync(join(tmpdir(), 'trident-elsewhere-')), 'a.json');
        writeFileSync(elsewhere, '{}', { mode: 0o600 });
        execFileSync('rm', [record]);
        symlinkSync(elsewhere, record);
        return `pending record ${record} is a symbolic link: refused`;
      },
    ],
    [
      'a FIFO',
      (record) => (
        execFileSync('rm', [record]),
        execFileSync('mkfifo', [record]),
        `pending record ${record} is not a regular file: refused`
      ),
    ],
  ];

  it.each(fileSpoilers)('refuses a file that is %s; TRIDENT_INSECURE_CONFIG=1 reads it', (name, spoil) => {
    const { dir, record } = configDir();
    const message = spoil(record);
    expect(refusal(() => readConfigFile(dir, record, 'pending record'))).toEqual({ exitCode: 2, message });
    if (name === 'a FIFO') return;
    withFileTrust(INSECURE, () => expect(readConfigFile(dir, record, 'pending record')).toMatch(/^\{/));
  });

  it('root may own them (system-wide files); a sticky shared directory above the config dir is fine', () => {
    const shared = mkdtempSync(join(tmpdir(), 'trident-shared-'));
    chmodSync(shared, 0o1777);
    const dir = join(shared, 'config');
    mkdirSync(join(dir, 'keys'), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'keys', 'k.pem'), 'pem', { mode: 0o600 });
    chownSync(join(dir, 'keys', 'k.pem'), 0, 0);
    expect(readConfigFile(dir, join(dir, 'keys', 'k.pem'), 'private key file')).toBe('pem');
  });

  it('reads no more than its cap, and only files below the config dir (anything else is a bug in the caller)', () => {
    const { dir, record } = configDir();
    writeFileSync(record, 'x'.repeat(2048));
    expect(refusal(() => readConfigFile(dir, record, 'pending record', 1024))).toEqual({
      exitCode: 2,
      message: `pending record ${record} is larger than 1 KiB: not read`,
    });
    expect(() => readConfigFile(dir, join(dir, '..', 'elsewhere.json'), 'pending record')).toThrow(/is not in the config directory/);
    expect(() => readConfigFile(dir, dir, 'pending record')).toThrow(/is not in the config directory/);
  });

  it('tells a file in one of its directories by name', () => {
    expect(isInConfigDir('/cfg', 'keys', '/cfg/keys/k.pem')).toBe(true);
    expect(isInConfigDir('/cfg', 'keys', '/cfg/keys/../k.pem')).toBe(false);
    expect(isInConfigDir('/cfg', 'keys', '/cfg/keysake/k.pem')).toBe(false);
    expect(isInConfigDir('/cfg', 'keys', '/elsewhere/k.pem')).toBe(false);
    expect(isInConfigDir('/cfg', 'keys', '/cfg/keys')).toBe(false);
  });
});
