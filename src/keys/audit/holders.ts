// Where the private half of each key is held on this machine. Every place trident knows is asked here, and
// only here, so that a new kind of storage (a keyring entry a profile refers to) is one more source below:
//   the profiles whose keys.keyId is the key, with the file they name (when it is there);
//   the key given by --key-id / TRIDENT_KEY_ID, with the file or the PEM it comes with;
//   trident's own key files, <config dir>/keys/<api_key>.pem;
//   the old keys kept by a rotation (overlap records) and the keys of rotations in progress, with their files;
//   trident's own keyring entries, keyring:trident/<dir tag>/keys/<api_key>, unless credentials are set to go to files.
// It reads no private key: a file counts as held when it is there, a keyring entry when the keyring has it (the
// keyring is asked once, for every entry at a time).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { mayChooseKeyring } from '../../core/credentials/choose.js';
import { KeyringFailure } from '../../core/credentials/keyring.js';
import { credentialPlaces } from '../../core/credentials/places.js';
import { isKeyringReference, keyringEntry } from '../../core/credentials/reference.js';
import { listConfigDir } from '../../core/files/config-files.js';
import type { Signer } from '../signing.js';
import { PRIVATE_KEY_ENV } from '../connection.js';
import { keyringKeyReferences } from '../mint/key-files.js';
import { listOverlaps } from '../overlap/records.js';
import { journalsOfKey } from '../rotation/journal.js';

export type HolderKind = 'profile' | 'environment' | 'file' | 'keyring' | 'overlap' | 'rotation';

export interface Holder {
  kind: HolderKind;
  /** For people: `profile "ci" (/path/key.pem)`, a file path, `TRIDENT_PRIVATE_KEY`. */
  where: string;
  profile?: string;
  file?: string;
}

/** The key given by flags or the environment (not by a profile), as the command's connection resolved it. */
export interface SignerOutsideProfiles {
  keyId: string;
  source: Signer['source'];
}

export function privateHalfHolders(ctx: Context, keyIds: readonly string[], outside?: SignerOutsideProfiles): Map<string, Holder[]> {
  const wanted = new Set(keyIds);
  const candidates: Array<{ keyId: string; holder: Holder; named: boolean }> = [];
  /** `named`: a profile or record names the place, so a keyring that cannot be asked is worth a warning. */
  const add = (keyId: string, holder: Holder, named = true) => {
    if (wanted.has(keyId)) candidates.push({ keyId, holder, named });
  };

  const store = ctx.settings.store;
  for (const profile of store.profiles()) {
    const keyId = store.get(profile, 'keys.keyId');
    const file = store.get(profile, 'keys.privateKeyFile');
    if (keyId !== undefined && file !== undefined) add(keyId, { kind: 'profile', profile, file, where: `profile "${profile}" (${file})` });
  }
  if (outside) {
    const pem = outside.source === PRIVATE_KEY_ENV;
    const file = pem ? undefined : outside.source.replace(/^key file /, '');
    add(outside.keyId, {
      kind: 'environment',
      where: pem ? PRIVATE_KEY_ENV : `--key-id/TRIDENT_KEY_ID (${file})`,
      ...(file ? { file } : {}),
    });
  }
  for (const name of listConfigDir(ctx.configDir, 'keys', 'keys directory')) {
    if (name.endsWith('.pem'))
      add(name.slice(0, -4), { kind: 'file', file: join(ctx.configDir, 'keys', name), where: join(ctx.configDir, 'keys', name) });
  }
  if (mayChooseKeyring(ctx))
    for (const keyId of keyIds)
      for (const entry of keyringKeyReferences(ctx, keyId)) add(keyId, { kind: 'keyring', file: entry, where: entry }, false);
  for (const { record } of listOverlaps(ctx.configDir)) {
    if (record.private_key_file !== null)
      add(record.api_key, { kind: 'overlap', file: record.private_key_file, where: record.private_key_file });
  }
  for (const keyId of keyIds) {
    for (const { journal } of journalsOfKey(ctx.configDir, keyId)) {
      const file = journal.old_key.api_key === keyId ? journal.old_key.private_key_file : journal.private_key_file;
      if (file) add(keyId, { kind: 'rotation', file, where: file });
    }
  }

  const present = placesPresent(ctx, candidates);
  const holders = new Map<string, Holder[]>(keyIds.map((id) => [id, []]));
  const seen = new Set<string>();
  for (const { keyId, holder } of candidates) {
    if (holder.file === undefined) {
      holders.get(keyId)!.push(holder);
      continue;
    }
    const place = placeKey(holder.file);
    if (!present.has(place)) continue;
    // A place named by several sources (a profile and the key file it names) is listed once, first source first.
    if (seen.has(`${keyId}\0${place}`)) continue;
    seen.add(`${keyId}\0${place}`);
    holders.get(keyId)!.push(holder);
  }
  return holders;
}

const placeKey = (place: string) => (isKeyringReference(place) ? place : resolve(place));

/**
 * Which of the candidates' places hold something: files by looking, keyring entries by one call to the keyring.
 * A keyring that cannot be asked holds nothing as far as the audit can tell; said once when a profile or a
 * record names an entry in it.
 */
function placesPresent(ctx: Context, candidates: ReadonlyArray<{ holder: Holder; named: boolean }>): Set<string> {
  const present = new Set<string>();
  const entries = new Map<string, boolean>();
  for (const { holder, named } of candidates) {
    if (holder.file === undefined) continue;
    const place = placeKey(holder.file);
    if (keyringEntry(place)) entries.set(place, (entries.get(place) ?? false) || named);
    else if (existsSync(place)) present.add(place);
  }
  const asked = [...entries.keys()];
  try {
    const found = credentialPlaces(ctx.env).keyring.has(asked.map((place) => keyringEntry(place)!));
    asked.forEach((place, at) => found[at] && present.add(place));
  } catch (error) {
    if (!(error instanceof KeyringFailure)) throw error;
    const named = asked.filter((place) => entries.get(place));
    if (named.length > 0) ctx.log.warn(`the OS keyring could not be asked (${error.reason}): ${named.join(', ')} counted as not held`);
  }
  return present;
}
