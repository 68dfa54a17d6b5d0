import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseCredentialStore, type StoreChoiceInput } from '../../../src/core/credentials/choose.js';
import type { Keyring } from '../../../src/core/credentials/keyring.js';
import { isKeyringReference, keyringEntry, keyringReference } from '../../../src/core/credentials/reference.js';
import type { TridentError } from '../../../src/core/errors.js';

describe('credential references', () => {
  it('a keyring reference names a service and an account; a path is none', () => {
    expect(keyringReference('keys/abc')).toBe('keyring:trident/keys/abc');
    expect(keyringEntry('keyring:trident/keys/abc')).toEqual({ service: 'trident', account: 'keys/abc' });
    expect(keyringEntry('/home/me/.config/trident/keys/abc.pem')).toBeUndefined();
    expect(isKeyringReference('./keyring:x')).toBe(false);
  });

  it('a malformed reference names no entry', () => {
    for (const bad of ['keyring:', 'keyring:trident', 'keyring:/keys/abc', 'keyring:trident/']) expect(keyringEntry(bad)).toBeUndefined();
  });
});

/** A keyring that answers `reason` (undefined: usable) and counts how often it was asked. */
function fakeKeyring(reason: string | undefined): Keyring & { asked: number } {
  const keyring = {
    asked: 0,
    unusable() {
      keyring.asked += 1;
      return reason;
    },
  };
  return keyring as unknown as Keyring & { asked: number };
}

function input(value: string | undefined, keyring: Keyring, env: NodeJS.ProcessEnv = {}) {
  const warnings: string[] = [];
  const configDir = join(mkdtempSync(join(tmpdir(), 'trident-store-')), 'config');
  const given: StoreChoiceInput = { value, origin: 'TRIDENT_CREDENTIAL_STORE', env, keyring, configDir, warn: (m) => warnings.push(m) };
  return { given, warnings, configDir };
}

describe('choosing where credentials go', () => {
  it('file and CI never ask the keyring', () => {
    const keyring = fakeKeyring(undefined);
    expect(chooseCredentialStore(input('file', keyring).given)).toBe('file');
    expect(chooseCredentialStore(input('auto', keyring, { CI: 'true' }).given)).toBe('file');
    expect(keyring.asked).toBe(0);
  });

  it('CI=false or 0 is no CI: auto takes a keyring that answers', () => {
    for (const CI of ['false', '0', ''])
      expect(chooseCredentialStore(input(undefined, fakeKeyring(undefined), { CI }).given)).toBe('keyring');
  });

  it('auto falls back to files with one note per config dir, naming the reason', () => {
    const keyring = fakeKeyring('the OS keyring did not answer within 5 s');
    const { given, warnings, configDir } = input('auto', keyring);
    expect(chooseCredentialStore(given)).toBe('file');
    expect(chooseCredentialStore(given)).toBe('file');
    expect(warnings).toEqual([
      `no OS keyring could be used (the OS keyring did not answer within 5 s): credentials go to 0600 files in ${configDir}; TRIDENT_CREDENTIAL_STORE=file says so without this note`,
    ]);
    expect(existsSync(join(configDir, 'credential-store-notice'))).toBe(true);
  });

  it('keyring asked for and not usable: exit 2 naming where the choice came from and why', () => {
    let error: TridentError | undefined;
    try {
      chooseCredentialStore(input('keyring', fakeKeyring('the keyring is locked')).given);
    } catch (caught) {
      error = caught as TridentError;
    }
    expect(error).toMatchObject({
      exitCode: 2,
      message: 'TRIDENT_CREDENTIAL_STORE asks for the OS keyring, but it cannot be used: the keyring is locked',
      hint: 'unlock or start the keyring, or choose files: TRIDENT_CREDENTIAL_STORE=file',
    });
  });
});
