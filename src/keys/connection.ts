// Where a keys command gets its service URL and signing key: flag > environment > profile (the PEM itself
// may come from TRIDENT_PRIVATE_KEY). Missing credentials exit 4 with a hint; clear-text http:// only to loopback.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { requireSetting } from '../core/files/missing-setting.js';
import { INPUT_CAPS, readFileCappedSync } from '../core/files/capped-read.js';
import { ExitCode, TridentError } from '../core/errors.js';
import { isInConfigDir, readConfigFile } from '../core/files/config-files.js';
import { assertTrustedFile } from '../core/files/file-trust.js';
import { credentialPlaces, keyringOutOfReach } from '../core/credentials/places.js';
import { isKeyringReference } from '../core/credentials/reference.js';
import { resolveKeysUrl } from './base-url.js';
import { KeysClient } from './client.js';
import { checkKeyAges } from './key-ages.js';
import { privateKeyFromPem } from './mint/keypair.js';
import type { Signer } from './signing.js';

export { DEFAULT_BASE_PATH, resolveKeysUrl } from './base-url.js';

export interface ConnectionOptions {
  url?: string;
  keyId?: string;
  privateKey?: string;
}

export interface KeysConnection {
  /** With the base path, never doubled: https://host/trade-api/v2 */
  baseUrl: URL;
  signer: Signer;
}

export const PRIVATE_KEY_ENV = 'TRIDENT_PRIVATE_KEY';
/** Where a hint about a missing keys setting ends: how to try trident before having a key of the exchange. */
export const TRY_SANDBOX = 'to try trident on local services first: trident sandbox';

export function addConnectionOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command
    .option(
      '--url <url>',
      "key service base URL, e.g. https://host/trade-api/v2, or production or demo for the exchange's environments (env TRIDENT_KEYS_URL, setting keys.url)",
    )
    .option('--key-id <id>', 'id of the key that signs requests (env TRIDENT_KEY_ID, setting keys.keyId)')
    .option(
      '--private-key <file>',
      `PEM file of that key (env TRIDENT_PRIVATE_KEY_FILE, or the PEM in ${PRIVATE_KEY_ENV}; setting keys.privateKeyFile)`,
    );
}

/** The service's base URL from a configured value: an alias, a bare origin or a full base URL (base-url.ts). */
export function keysBaseUrl(value: string, origin = 'keys service URL'): URL {
  return resolveKeysUrl(value, origin).url;
}

/**
 * A key file in <config dir>/keys/ is one trident keeps (no link, nothing on its way that others can write);
 * one the user names elsewhere may be a link whose target passes the same checks.
 */
async function readKeyFile(ctx: Context, file: string): Promise<string> {
  if (isKeyringReference(file)) return readKeyringKey(ctx, file);
  try {
    const pem = isInConfigDir(ctx.configDir, 'keys', resolve(file)) ? readKeptKeyFile(ctx, file) : readNamedKeyFile(file);
    const mode = statSync(file).mode;
    if ((mode & 0o077) !== 0)
      ctx.log.warn(`private key file ${file} can be read by other users (mode ${(mode & 0o777).toString(8)}); chmod 600 it`);
    return pem;
  } catch (error) {
    if (error instanceof TridentError) throw error;
    throw unreadableKeyFile(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
}

/** A private key in the OS keyring: gone or out of reach, it is a missing credential (exit 4). */
async function readKeyringKey(ctx: Context, reference: string): Promise<string> {
  let pem: string | undefined;
  try {
    pem = await credentialPlaces(ctx.env).use(reference);
  } catch (error) {
    throw keyringOutOfReach(
      error,
      (reason) => `cannot read the private key ${reference}: ${reason}`,
      'unlock the OS keyring (or start its session) and run the command again',
    );
  }
  if (pem === undefined)
    throw new TridentError(ExitCode.auth, `missing credential: the private key ${reference} is not in the OS keyring`, {
      hint: 'it was removed outside trident: point the profile at a key you hold (trident config set keys.privateKeyFile <file>) or make one (trident keys generate --use)',
    });
  return pem;
}

function readKeptKeyFile(ctx: Context, file: string): string {
  const pem = readConfigFile(ctx.configDir, resolve(file), 'private key file', INPUT_CAPS.key);
  if (pem === undefined) throw unreadableKeyFile(file, 'ENOENT');
  return pem;
}

/** A private key file the user names (a link allowed, its target checked); its read errors are the caller's to word. */
export function readNamedKeyFile(file: string): string {
  // Read first: a path that cannot be read (a directory, a missing file) gets no warning about its mode.
  const pem = readFileCappedSync(file, INPUT_CAPS.key, `private key file ${file}`);
  assertTrustedFile(file, 'private key file', 'follow');
  return pem;
}

function unreadableKeyFile(file: string, reason: string): TridentError {
  return new TridentError(ExitCode.auth, `cannot read private key file ${file}: ${reason}`, {
    hint: 'check --private-key, TRIDENT_PRIVATE_KEY_FILE or keys.privateKeyFile',
  });
}

/** The private key: --private-key or TRIDENT_PRIVATE_KEY_FILE, else the PEM in TRIDENT_PRIVATE_KEY, else the profile's file. */
async function resolveSigner(ctx: Context, opts: ConnectionOptions, keyId: string): Promise<Signer> {
  const file = ctx.settings.resolve('keys.privateKeyFile', opts.privateKey);
  const pem = ctx.env[PRIVATE_KEY_ENV];
  if (pem && file.source !== 'flag' && file.source !== 'env') {
    return { keyId, privateKey: privateKeyFromPem(pem, PRIVATE_KEY_ENV), source: PRIVATE_KEY_ENV };
  }
  const path = requireSetting(
    file,
    'private key',
    `run: trident keys setup (or pass --private-key <file>, set TRIDENT_PRIVATE_KEY_FILE or ${PRIVATE_KEY_ENV}, or trident config set keys.privateKeyFile <file>); ${TRY_SANDBOX}`,
    ExitCode.auth,
  );
  return signerFromFile(ctx, keyId, path);
}

/** The PEM at a private key's place (a file, with the checks a key file gets, or a keyring entry). */
export const readPrivateKeyPem = readKeyFile;

/** A signer whose private key is read from a PEM file (with a warning if others can read the file) or the keyring. */
export async function signerFromFile(ctx: Context, keyId: string, path: string): Promise<Signer> {
  const what = isKeyringReference(path) ? `keyring entry ${path}` : `key file ${path}`;
  return { keyId, privateKey: privateKeyFromPem(await readKeyFile(ctx, path), `private ${what}`), source: what };
}

export async function resolveConnection(ctx: Context, opts: ConnectionOptions): Promise<KeysConnection> {
  const setting = ctx.settings.resolve('keys.url', opts.url);
  const url = requireSetting(
    setting,
    'key service URL',
    `run: trident keys setup (or pass --url, set TRIDENT_KEYS_URL, or trident config set keys.url <url>); ${TRY_SANDBOX}`,
  );
  const baseUrl = keysBaseUrl(url, ctx.settings.origin(setting, '--url'));
  const keyId = requireSetting(
    ctx.settings.resolve('keys.keyId', opts.keyId),
    'key id',
    `run: trident keys setup (or pass --key-id, set TRIDENT_KEY_ID, or trident config set keys.keyId <id>); ${TRY_SANDBOX}`,
    ExitCode.auth,
  );
  return { baseUrl, signer: await resolveSigner(ctx, opts, keyId) };
}

/** A client for `connection`; rotation builds a second one signed by the new key to verify it. */
export async function openKeysClient(ctx: Context, connection: KeysConnection): Promise<KeysClient> {
  // Key ages decide what a rotation replaces: a planted file is refused before anything is sent.
  checkKeyAges(ctx);
  const http = await ctx.http({ serviceName: 'keys service', baseUrl: connection.baseUrl });
  return new KeysClient(http, connection.baseUrl, connection.signer, () => ctx.now().getTime());
}
