// Where the private half of each key is held on this machine. Every place trident knows is asked here, and
// only here, so that a new kind of storage (a keyring entry a profile refers to) is one more source below:
//   the profiles whose keys.keyId is the key, with the file they name (when it is there);
//   the key given by --key-id / TRIDENT_KEY_ID, with the file or the PEM it comes with;
//   trident's own key files, <config dir>/keys/<api_key>.pem;
//   the old keys kept by a rotation (overlap records) and the keys of rotations in progress, with their files.
// It reads no private key: a file counts as held when it is there.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { listConfigDir } from '../../core/files/config-files.js';
import type { Signer } from '../signing.js';
import { PRIVATE_KEY_ENV } from '../connection.js';
import { listOverlaps } from '../overlap/records.js';
import { journalsOfKey } from '../rotation/journal.js';

export type HolderKind = 'profile' | 'environment' | 'file' | 'overlap' | 'rotation';

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
  const holders = new Map<string, Holder[]>(keyIds.map((id) => [id, []]));
  const seenFiles = new Set<string>();
  const add = (keyId: string, holder: Holder) => {
    if (!wanted.has(keyId)) return;
    if (holder.file !== undefined) {
      const file = resolve(holder.file);
      if (!existsSync(file) || seenFiles.has(`${keyId}\0${file}`)) return;
      seenFiles.add(`${keyId}\0${file}`);
    }
    holders.get(keyId)!.push(holder);
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
  return holders;
}
