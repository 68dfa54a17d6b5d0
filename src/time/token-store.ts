// The token `time login` obtained, one file per profile: `<config dir>/tokens/<profile>.json`, mode 0600
// in a 0700 directory. No OS keyring is available on the machines this runs on, so the file is the store.
// It also remembers the User-Agent the token was created with: the service destroys a token used from another.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { INPUT_CAPS, readFileCappedSync } from '../core/files/capped-read.js';
import { ExitCode, TridentError, usageError } from '../core/errors.js';
import { assertConfigDir, readConfigFile } from '../core/files/config-files.js';
import { assertTrustedFile } from '../core/files/file-trust.js';
import { preflightSecretPath, removeSecretFile, writeSecretFile } from '../core/files/secret-file.js';

export interface StoredToken {
  token: string;
  userAgent: string;
  accountId: string | null;
  email: string | null;
  /** ISO 8601. */
  createdAt: string;
}

export function tokenPath(configDir: string, profile: string): string {
  return join(configDir, 'tokens', `${profile}.json`);
}

/** Throws (exit 2) before a login if the token could not be stored afterwards, or not read back. */
export function preflightTokenPath(configDir: string, path: string): void {
  assertConfigDir(configDir, 'tokens', 'directory');
  preflightSecretPath(path, { force: true });
}

export async function saveToken(path: string, stored: StoredToken): Promise<void> {
  await writeSecretFile(path, `${JSON.stringify(stored, null, 2)}\n`, { force: true });
}

/** The profile's stored token, or undefined when there is none. `warn` hears about a file others can read. */
export function loadToken(configDir: string, profile: string, warn?: (message: string) => void): StoredToken | undefined {
  const path = tokenPath(configDir, profile);
  const text = readTokenText(path, () => readConfigFile(configDir, path, 'token file', INPUT_CAPS.token));
  if (text === undefined) return undefined;
  if ((statSync(path).mode & 0o077) !== 0) warn?.(`${path} can be read by other users; run: chmod 600 ${path}`);
  const parsed = parseTokenText(text);
  if (!parsed?.token || !isTokenShaped(parsed.token)) throw usageError(`cannot read the stored token ${path}: not a token file`, 'log in again: trident time login');
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
  if (!token || !isTokenShaped(token)) throw usageError(`${path} does not hold a token`, 'the file should contain the token alone, or be a file written by trident time login');
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
    throw new TridentError(ExitCode.auth, `cannot read token file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      hint: 'check --token-file, or log in again: trident time login',
    });
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
