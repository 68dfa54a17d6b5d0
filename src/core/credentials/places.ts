// Reading, writing, moving and removing a credential wherever its reference says it is: a 0600 file or an entry
// of the OS keyring. A write to the keyring is read back before it counts; a move removes the old place only
// after the new one holds the same secret, so that an interruption leaves the secret in one place at least.
import { readFileSync } from 'node:fs';
import { ExitCode, TridentError, usageError } from '../errors.js';
import { moveSecretFile, removeSecretFile, writeSecretFile, type SecretWriteOptions } from '../files/secret-file.js';
import { Keyring, KeyringFailure } from './keyring.js';
import { keyringEntry } from './reference.js';

/**
 * A failed keyring call as the command's error: a keyring that cannot be asked (no session bus, locked, silent)
 * keeps a credential out of reach, exit 4, and `message` gets its reason. Anything else is thrown on as it is.
 */
export function keyringOutOfReach(error: unknown, message: (reason: string) => string, hint?: string, code?: string): TridentError {
  if (!(error instanceof KeyringFailure)) throw error;
  return new TridentError(ExitCode.auth, message(error.reason), {
    ...(hint !== undefined ? { hint } : {}),
    ...(code !== undefined ? { code } : {}),
  });
}

export class CredentialPlaces {
  constructor(readonly keyring: Keyring) {}

  /** The secret at `place`, or undefined when nothing is there. A keyring that cannot be asked throws KeyringFailure. */
  read(place: string): string | undefined {
    const entry = keyringEntry(place);
    if (entry) return this.keyring.get(entry);
    try {
      return readFileSync(place, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** The same secret as read gives, for the credential a command signs or logs in with (see Keyring.read). */
  async use(place: string): Promise<string | undefined> {
    const entry = keyringEntry(place);
    return entry ? this.keyring.read(entry) : this.read(place);
  }

  /** Like read, but a place that cannot be read at all counts as empty: for settling, where absence is an answer. */
  peek(place: string): string | undefined {
    try {
      return this.read(place);
    } catch {
      return undefined;
    }
  }

  async write(place: string, secret: string, options: SecretWriteOptions = {}): Promise<void> {
    const entry = keyringEntry(place);
    if (!entry) return writeSecretFile(place, secret, options);
    try {
      this.keyring.put(entry, secret, options.force);
    } catch (error) {
      if (error instanceof KeyringFailure && error.exists) throw usageError(`${place} already exists`, 'pass --force to replace it');
      throw error;
    }
  }

  /** A complete secret file to `place`; the file is removed once the place holds it. */
  async moveFile(from: string, place: string, options: SecretWriteOptions = {}): Promise<void> {
    if (!keyringEntry(place)) return moveSecretFile(from, place, options);
    await this.write(place, readFileSync(from, 'utf8'), options);
    await removeSecretFile(from);
  }

  /** True if something was removed. */
  async remove(place: string): Promise<boolean> {
    const entry = keyringEntry(place);
    return entry ? this.keyring.delete(entry) : removeSecretFile(place);
  }
}

const perEnvironment = new WeakMap<NodeJS.ProcessEnv, CredentialPlaces>();

/** One keyring per environment, so that a keyring that did not answer once is not waited for again. */
export function credentialPlaces(env: NodeJS.ProcessEnv): CredentialPlaces {
  let places = perEnvironment.get(env);
  if (!places) {
    places = new CredentialPlaces(new Keyring(env));
    perEnvironment.set(env, places);
  }
  return places;
}
