// The stored time token (wire/time/token-file.ts) as the time commands use it: its place checked before a login,
// read back with the checks a secret file needs, removed at logout; and a --token-file of the user's.
import { statSync } from 'node:fs';
import { INPUT_CAPS, readFileCappedSync } from '../core/files/capped-read.js';
import { ExitCode, TridentError, usageError } from '../core/errors.js';
import { assertConfigDir, readConfigFile } from '../core/files/config-files.js';
import { assertTrustedFile } from '../core/files/file-trust.js';
import { preflightSecretPath, removeSecretFile } from '../core/files/secret-file.js';
import { tokenPath, type StoredToken } from '../wire/time/token-file.js';

/** Throws (exit 2) before a login if the token could not be stored afterwards, or not read back. */
export function preflightTokenPath(configDir: string, path: string): void {
  assertConfigDir(configDir, 'tokens', 'directory');
  preflightSecretPath(path, { force: true });
}

/** The profile's stored token, or undefined when there is none. `warn` hears about a file others can read. */
export function loadToken(configDir: string, profile: string, warn?: (message: string) => void): StoredToken | undefined {
  const path = tokenPath(configDir, profile);
  const text = readTokenText(path, () => readConfigFile(configDir, path, 'token file', INPUT_CAPS.token));
  if (text === undefined) return undefined;
  if ((statSync(path).mode & 0o077) !== 0) warn?.(`${path} can be read by other users; run: chmod 600 ${path}`);
  const parsed = parseTokenText(text);
  if (!parsed?.token || !isTokenShaped(parsed.token))
    throw usageError(`cannot read the stored token ${path}: not a token file`, 'log in again: trident time login');
  return {
    token: parsed.token,
    userAgent: parsed.userAgent ?? '',
    accountId: parsed.accountId ?? null,
    email: parsed.email ?? null,
    createdAt: parsed.createdAt ?? '',
  };
}

/** True if a file was removed. */
export const removeToken = removeSecretFile;

/**
 * A `--token-file`: either a file written by `time login` (JSON, which also says the User-Agent) or just the
 * token on one line.
 */
export function readTokenFile(path: string): { token: string; userAgent?: string } {
  const text = readTokenText(path, () => readFileCappedSync(path, INPUT_CAPS.token, `token file ${path}`));
  assertTrustedFile(path, 'token file', 'follow');
  const parsed = parseTokenText(text);
  const token = parsed ? parsed.token : text.trim();
  if (!token || !isTokenShaped(token))
    throw usageError(
      `${path} does not hold a token`,
      'the file should contain the token alone, or be a file written by trident time login',
    );
  return { token, userAgent: parsed?.userAgent || undefined };
}

const MAX_TOKEN_LENGTH = 4096;

/**
 * A token is one word of visible ASCII, of a length a request header can carry: anything else (a pasted
 * line with spaces, a control character, a file's worth of text) would only be refused by the service.
 */
export function isTokenShaped(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && /^[\x21-\x7e]+$/.test(token);
}

/** A token file that cannot be read is a missing credential (exit 4), like a private key file; one too large for a token, exit 2. */
function readTokenText<T extends string | undefined>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof TridentError) throw error;
    throw new TridentError(
      ExitCode.auth,
      `cannot read token file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      {
        hint: 'check --token-file, or log in again: trident time login',
      },
    );
  }
}

function parseTokenText(text: string): Partial<StoredToken> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    // Only string fields count: a hand-edited file must not smuggle in other types.
    const strings = Object.entries(parsed).filter(([, value]) => typeof value === 'string');
    return Object.fromEntries(strings) as Partial<StoredToken>;
  } catch {
    return undefined;
  }
}
