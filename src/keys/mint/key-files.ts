// Where private keys live on this machine: in the OS keyring as `keyring:trident/<dir tag>/keys/<api_key>` or in
// `<config dir>/keys/<api_key>.pem` (core/credentials/choose.ts decides which), unless --out names a file;
// files always 0600, written atomically, never over an existing one unless forced.
import { randomBytes } from 'node:crypto';
// fs.promises loads node:fs/promises on first use: commands that only read settings and keys skip it.
import { promises as fs } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { credentialStore } from '../../core/credentials/choose.js';
import type { CredentialPlaces } from '../../core/credentials/places.js';
import { configDirKeyringReference, keyringReference } from '../../core/credentials/reference.js';
import { assertConfigDir } from '../../core/files/config-files.js';
import { preflightSecretDir, preflightSecretPath, writeSecretFile, type SecretWriteOptions } from '../../core/files/secret-file.js';

/** `--out -`: the PEM goes to stdout. */
export const STDOUT = '-';

export function keysDir(ctx: Context): string {
  return join(ctx.configDir, 'keys');
}

/** `<config dir>/keys/<api_key>.pem`; characters a file name cannot hold become "_". */
export function defaultKeyPath(ctx: Context, apiKey: string): string {
  return join(keysDir(ctx), `${apiKey.replace(/[^A-Za-z0-9._-]/g, '_')}.pem`);
}

/** The keyring entry of a key in this config dir: `keyring:trident/<dir tag>/keys/<api_key>`. */
export function keyringKeyReference(ctx: Context, apiKey: string): string {
  return configDirKeyringReference(ctx.configDir, `keys/${apiKey}`);
}

/** The entry earlier releases gave a key, the same in every config dir: still trident's own where a profile names it. */
function sharedKeyringKeyReference(apiKey: string): string {
  return keyringReference(`keys/${apiKey}`);
}

/** The keyring entries trident may have given a key: this config dir's, and the one of earlier releases. */
export function keyringKeyReferences(ctx: Context, apiKey: string): string[] {
  return [keyringKeyReference(ctx, apiKey), sharedKeyringKeyReference(apiKey)];
}

/** Where a new key with no --out goes: its keyring entry or its file in <config dir>/keys/. */
export function defaultKeyPlace(ctx: Context, apiKey: string): string {
  return credentialStore(ctx) === 'keyring' ? keyringKeyReference(ctx, apiKey) : defaultKeyPath(ctx, apiKey);
}

/** Every place a key with no --out may have been stored by this or an earlier command. */
export function defaultKeyPlaces(ctx: Context, apiKey: string): string[] {
  return [defaultKeyPlace(ctx, apiKey), ...keyringKeyReferences(ctx, apiKey), defaultKeyPath(ctx, apiKey)].filter(
    (place, index, all) => all.indexOf(place) === index,
  );
}

/** Whether `place` is one trident chose for the key (its keyring entry or <config dir>/keys/<api_key>.pem): it goes with the key. */
export function isTridentsOwnPlace(ctx: Context, apiKey: string, place: string): boolean {
  return keyringKeyReferences(ctx, apiKey).includes(place) || place === resolve(defaultKeyPath(ctx, apiKey));
}

/** The file a new key goes to: `--out` (absolute), or undefined for the default path (known only with the id). */
export function outPath(out: string | undefined): string | undefined {
  return out === undefined || out === STDOUT ? undefined : resolve(out);
}

/** Before the service is called: the target can be written (and does not exist unless forced). Exit 2 otherwise. */
export function preflightKeyTarget(ctx: Context, out: string | undefined, options: SecretWriteOptions = {}): void {
  if (out === STDOUT) return;
  const path = outPath(out);
  if (path === undefined) {
    // The keyring, if chosen, is asked now: an explicit keyring that cannot be used stops the command here.
    credentialStore(ctx);
    assertConfigDir(ctx.configDir, 'keys', 'directory');
    preflightSecretDir(keysDir(ctx));
  } else {
    preflightSecretPath(path, options);
  }
}

/**
 * A private key written (0600, complete) under a provisional name in the directory of its final place (the
 * keys directory for a keyring entry), for a key whose id is not known yet. `place` moves it into its final
 * place, file or keyring entry; `discard` removes it.
 */
export interface StagedKey {
  path: string;
  place(finalPath: string, options?: SecretWriteOptions): Promise<void>;
  discard(): Promise<void>;
}

export async function stagePrivateKey(dir: string, pem: string, places: CredentialPlaces): Promise<StagedKey> {
  const path = join(dir, `pending-${Date.now()}-${randomBytes(4).toString('hex')}.pem`);
  await writeSecretFile(path, pem);
  const staged: StagedKey = {
    path,
    async place(finalPath, options = {}) {
      await places.moveFile(staged.path, finalPath, options);
      staged.path = finalPath;
    },
    discard: () => fs.unlink(staged.path).catch(() => undefined),
  };
  return staged;
}

/** The directory a key for `out` is staged in. */
export function stagingDir(ctx: Context, out: string | undefined): string {
  const path = outPath(out);
  return path === undefined ? keysDir(ctx) : dirname(path);
}
