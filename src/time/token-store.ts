// The stored time token as the time commands use it: in the OS keyring (keyring:trident/<dir tag>/time/<profile>,
// which the profile's time.tokenLocation names) or in <config dir>/tokens/<profile>.json (wire/time/token-file.ts);
// its place chosen and checked before a login, read back with the checks a secret file needs, removed at logout;
// and a --token-file of the user's. A token is sent only to the tracker that issued it.
import { statSync } from 'node:fs';
import type { Context } from '../context.js';
import { credentialStore } from '../core/credentials/choose.js';
import { credentialPlaces, keyringOutOfReach } from '../core/credentials/places.js';
import { configDirKeyringReference, isKeyringReference, keyringEntry } from '../core/credentials/reference.js';
import { INPUT_CAPS, readFileCappedSync } from '../core/files/capped-read.js';
import { ExitCode, TridentError, usageError } from '../core/errors.js';
import { assertConfigDir, readConfigFile } from '../core/files/config-files.js';
import { assertTrustedFile } from '../core/files/file-trust.js';
import { preflightSecretPath } from '../core/files/secret-file.js';
import { serializeToken, tokenIssuer, tokenPath, type StoredToken } from '../wire/time/token-file.js';

/** Where the profile's token is: the keyring entry its time.tokenLocation names, else its token file. */
export function storedTokenPlace(ctx: Context): string {
  const location = ctx.settings.store.get(ctx.profile, 'time.tokenLocation');
  return location !== undefined && isKeyringReference(location) ? location : tokenPath(ctx.configDir, ctx.profile);
}

/**
 * Before a login: where the token will go (the keyring is asked now), and that it can be written there (exit 2
 * otherwise). Returns the place.
 */
export function preflightTokenPlace(ctx: Context): string {
  if (credentialStore(ctx) === 'keyring') return configDirKeyringReference(ctx.configDir, `time/${ctx.profile}`);
  const path = tokenPath(ctx.configDir, ctx.profile);
  assertConfigDir(ctx.configDir, 'tokens', 'directory');
  preflightSecretPath(path, { force: true });
  return path;
}

/** Stores a new token at `place` and points the profile at it; the token it replaces, elsewhere, goes. */
export async function storeToken(ctx: Context, place: string, stored: StoredToken): Promise<void> {
  const before = storedTokenPlace(ctx);
  const places = credentialPlaces(ctx.env);
  await places.write(place, serializeToken(stored), { force: true });
  const location = isKeyringReference(place) ? place : undefined;
  if (ctx.settings.store.get(ctx.profile, 'time.tokenLocation') !== location)
    await ctx.settings.store.update(ctx.profile, { 'time.tokenLocation': location });
  if (before !== place) await places.remove(before).catch(() => false);
}

/** Removes the profile's stored token and forgets its place; true if one was removed. */
export async function removeToken(ctx: Context): Promise<boolean> {
  const removed = await credentialPlaces(ctx.env).remove(storedTokenPlace(ctx));
  if (ctx.settings.store.get(ctx.profile, 'time.tokenLocation') !== undefined)
    await ctx.settings.store.update(ctx.profile, { 'time.tokenLocation': undefined });
  return removed;
}

/** The token in the keyring; an entry gone or a keyring out of reach is a missing credential (exit 4). */
async function readKeyringToken(ctx: Context, place: string): Promise<string> {
  const relogin = 'log in again: trident time login';
  try {
    const text = await credentialPlaces(ctx.env).use(place);
    if (text !== undefined) return text;
  } catch (error) {
    throw keyringOutOfReach(
      error,
      (reason) => `cannot read the time token ${place}: ${reason}`,
      `unlock the OS keyring (or start its session), or ${relogin}`,
    );
  }
  throw new TridentError(ExitCode.auth, `missing credential: the time token ${place} is not in the OS keyring`, { hint: relogin });
}

/**
 * The profile's stored token for the tracker at `baseUrl`, or undefined when there is none. A file others can
 * read gets a warning; a token another tracker issued is refused (exit 4) before it is sent anywhere.
 */
export async function loadToken(ctx: Context, baseUrl: URL): Promise<StoredToken | undefined> {
  const path = storedTokenPlace(ctx);
  const keyring = isKeyringReference(path);
  const text = keyring
    ? await readKeyringToken(ctx, path)
    : readTokenText(path, () => readConfigFile(ctx.configDir, path, 'token file', INPUT_CAPS.token));
  if (text === undefined) return undefined;
  if (!keyring && (statSync(path).mode & 0o077) !== 0) ctx.log.warn(`${path} can be read by other users; run: chmod 600 ${path}`);
  const parsed = parseTokenText(text);
  if (!parsed?.token || !isTokenShaped(parsed.token))
    throw usageError(`cannot read the stored token ${path}: not a token file`, 'log in again: trident time login');
  const stored: StoredToken = {
    token: parsed.token,
    userAgent: parsed.userAgent ?? '',
    accountId: parsed.accountId ?? null,
    email: parsed.email ?? null,
    createdAt: parsed.createdAt ?? '',
    ...(parsed.issuer !== undefined ? { issuer: parsed.issuer } : {}),
  };
  if (keyring && isSharedKeyringEntry(path)) return adoptSharedEntry(ctx, path, { ...stored, issuer: tokenIssuer(baseUrl) });
  assertIssuedBy(ctx, stored.issuer, baseUrl, path);
  return stored;
}

/** A token with a known issuer goes to that tracker only. */
export function assertIssuedBy(ctx: Context, issuer: string | undefined, baseUrl: URL, place: string): void {
  if (issuer === undefined || issuer === tokenIssuer(baseUrl)) return;
  throw new TridentError(
    ExitCode.auth,
    `the time token in ${place} was issued by ${issuer}, not ${tokenIssuer(baseUrl)}: it is sent only to the tracker that issued it`,
    { hint: `log in to this tracker: trident${ctx.profile === 'default' ? '' : ` --profile ${ctx.profile}`} time login` },
  );
}

/** An entry earlier releases named for the profile alone (`keyring:trident/time/<profile>`), which every config dir shared. */
function isSharedKeyringEntry(place: string): boolean {
  return keyringEntry(place)?.account.startsWith('time/') === true;
}

/**
 * The first config dir to use a shared entry takes its token into an entry of its own, bound to the tracker its
 * profile names, and removes the shared one, so that no other config dir can send that token elsewhere later.
 */
async function adoptSharedEntry(ctx: Context, shared: string, stored: StoredToken): Promise<StoredToken> {
  const own = configDirKeyringReference(ctx.configDir, `time/${ctx.profile}`);
  await credentialPlaces(ctx.env).write(own, serializeToken(stored), { force: true });
  await ctx.settings.store.update(ctx.profile, { 'time.tokenLocation': own });
  await credentialPlaces(ctx.env).remove(shared);
  ctx.log.info(`the time token moved from ${shared}, which every config dir shared, to ${own}`);
  return stored;
}

/**
 * A `--token-file`: either a file written by `time login` (JSON, which also says the User-Agent) or just the
 * token on one line.
 */
export function readTokenFile(path: string): { token: string; userAgent?: string; issuer?: string } {
  const text = readTokenText(path, () => readFileCappedSync(path, INPUT_CAPS.token, `token file ${path}`));
  assertTrustedFile(path, 'token file', 'follow');
  const parsed = parseTokenText(text);
  const token = parsed ? parsed.token : text.trim();
  if (!token || !isTokenShaped(token))
    throw usageError(
      `${path} does not hold a token`,
      'the file should contain the token alone, or be a file written by trident time login',
    );
  return { token, userAgent: parsed?.userAgent || undefined, ...(parsed?.issuer ? { issuer: parsed.issuer } : {}) };
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
