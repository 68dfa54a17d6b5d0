// `keys delete` through the ledger: a key that a profile of the config dir uses, or that a rotation or an overlap
// names, is refused before anything is sent unless --force, which names, before the delete is sent, who is left
// with a deleted key. Just
// before the deletes are sent, the claims are looked at again and each delete is noted, under the settings lock:
// `config set` refuses a key being deleted, so no profile can be pointed at it in between. A delete that does not
// happen takes its note back. Once the service has deleted a key, trident's own copy of its private half (its
// file in <config dir>/keys/, its keyring entry) goes with it, unless something still names it (a profile --force
// left with the key then fails as one with a deleted key does, not as one with a missing file); a file of the
// user's stays and is named.
import { existsSync } from 'node:fs';
import type { Context } from '../../context.js';
import { mayChooseKeyring } from '../../core/credentials/choose.js';
import { credentialPlaces } from '../../core/credentials/places.js';
import { keyringEntry } from '../../core/credentials/reference.js';
import { usageError } from '../../core/errors.js';
import { SettingsStore } from '../../core/files/settings.js';
import { defaultKeyPath, isTridentsOwnPlace, keyringKeyReferences } from '../mint/key-files.js';
import type { ApiKey } from '../client.js';
import { LATE_KEY_WINDOW_MS } from '../mint/pending.js';
import { confirmDeleted, cutShortDelete, forgetDeleted, keyBeingDeleted, noteDeleted } from '../overlap/records.js';
import { describeClaims, keyClaims, placeClaims, type Claim } from './claims.js';

/** The claims that stand against deleting `id`: all but a delete already under way. */
const standing = (ctx: Context, id: string): Claim[] => keyClaims(ctx.configDir, id).filter((claim) => claim.kind !== 'deleting');

/** Refuses (exit 2) the first key someone still names, unless `force`. */
export function refuseClaimedKeys(ctx: Context, ids: readonly string[], force: boolean | undefined): void {
  if (force) return;
  for (const id of ids) {
    const claims = standing(ctx, id);
    if (claims.length === 0) continue;
    throw usageError(
      `key ${id} is named by ${describeClaims(claims)}: deleting it would leave ${claims.length > 1 ? 'them' : 'it'} with a deleted key`,
      hintFor(claims),
    );
  }
}

function hintFor(claims: readonly Claim[]): string {
  const ways = new Set<string>();
  for (const claim of claims) {
    if (claim.kind === 'profile') ways.add(`point profile "${claim.profile}" at another key first (trident keys rotate replaces it)`);
    if (claim.kind === 'rotation') ways.add('finish the rotation first (trident keys rotate --resume, or --abort)');
    if (claim.kind === 'overlap') ways.add('let trident keys prune delete it when its time has come');
  }
  return `${[...ways].join('; ')}; or pass --force to delete it anyway`;
}

/**
 * Under the settings lock: the claims on each key as they stand now, and a note that it is being deleted. Returns
 * the claims (what --force leaves behind) and the keys whose note was written here, for `settle` to take back.
 */
export async function noteDeletes(
  ctx: Context,
  ids: readonly string[],
  force: boolean | undefined,
  url: string,
): Promise<Map<string, Claim[]>> {
  return ctx.settings.store.whileLocked(async () => {
    refuseClaimedKeys(ctx, ids, force);
    const noted = new Map<string, Claim[]>();
    for (const id of ids) {
      const claims = standing(ctx, id);
      if (keyBeingDeleted(ctx.configDir, id) === undefined || cutShortDelete(ctx.configDir, id))
        await noteDeleted(ctx.configDir, id, ctx.now(), 'keys delete', url);
      noted.set(id, claims);
      // Said before the delete is sent: a process killed once the service has deleted the key has told already.
      if (claims.length > 0)
        ctx.log.warn(`deleting key ${id} although ${describeClaims(claims)} still name${claims.length > 1 ? '' : 's'} it (--force)`);
    }
    return noted;
  });
}

/**
 * After the service answered for `id`: a key it did not delete loses its note (when this command wrote it); a
 * deleted key loses trident's own copies of its private half, and whoever --force left with it is named.
 */
export async function settleDelete(ctx: Context, id: string, deleted: boolean, noted: ReadonlyMap<string, Claim[]>): Promise<void> {
  if (!deleted) {
    if (noted.has(id)) await forgetDeleted(ctx.configDir, id).catch(() => undefined);
    return;
  }
  await confirmDeleted(ctx.configDir, id);
  const store = new SettingsStore(ctx.configDir);
  const named = store.profiles().flatMap((profile) => {
    const values = store.values(profile);
    return values['keys.keyId'] === id && values['keys.privateKeyFile'] !== undefined ? [values['keys.privateKeyFile']] : [];
  });
  for (const place of named.filter((place) => !isTridentsOwnPlace(ctx, id, place)))
    ctx.log.info(`the private key file ${place} of key ${id} is yours and stays: remove it once nothing uses it`);
  await removeOwnCopies(ctx, id);
}

/** Trident's own copies of the deleted key's private half that nothing names any more. */
async function removeOwnCopies(ctx: Context, id: string): Promise<void> {
  const places = credentialPlaces(ctx.env);
  const unnamed = (place: string) => placeClaims(ctx.configDir, place).length === 0;
  const files = [defaultKeyPath(ctx, id)].filter((place) => existsSync(place) && unnamed(place));
  const entries = (mayChooseKeyring(ctx) ? keyringKeyReferences(ctx, id) : []).filter(unnamed);
  let present: string[] = [];
  try {
    const found = places.keyring.has(entries.map((place) => keyringEntry(place)!));
    present = entries.filter((_, at) => found[at]);
  } catch (error) {
    // Nothing names these entries: a keyring that cannot be asked (no session bus, locked) is no reason to fail.
    ctx.log.debug(`the OS keyring could not be asked about the private key of the deleted key ${id}: ${(error as Error).message}`);
  }
  for (const place of [...files, ...present]) {
    try {
      if (await places.remove(place)) ctx.log.info(`removed ${place}, the private key of the deleted key ${id}`);
    } catch (error) {
      ctx.log.warn(`the private key of the deleted key ${id} stays in ${place}: ${(error as Error).message}`);
    }
  }
}

/**
 * The deletes against this service that were cut short before they heard the answer (`cutShort`, the keys
 * cutShortDeletes names), settled from the service's list: a key gone was deleted, and trident's copies of its
 * private half go as after any delete; a key still there once a late delete could no longer arrive was not,
 * and its note goes (a profile may be pointed at it again). Each is decided under the settings lock, on the note
 * as it is then. Returns what was found, a clause each.
 */
export async function settleCutShortDeletes(ctx: Context, cutShort: readonly string[], keys: readonly ApiKey[]): Promise<string[]> {
  const clauses: string[] = [];
  for (const apiKey of cutShort) {
    const present = keys.some((key) => key.api_key === apiKey);
    const outcome = await ctx.settings.store.whileLocked(async () => {
      const note = cutShortDelete(ctx.configDir, apiKey);
      if (note === undefined) return undefined;
      if (!present) return 'deleted';
      if (ctx.now().getTime() - Date.parse(note.at) < LATE_KEY_WINDOW_MS) return 'not yet';
      await forgetDeleted(ctx.configDir, apiKey);
      return 'kept';
    });
    if (outcome === 'deleted') {
      // The run that was cut short may not have lived to say who it left with a deleted key (--force).
      const left = standing(ctx, apiKey).filter((claim) => claim.kind === 'profile');
      await settleDelete(ctx, apiKey, true, new Map());
      clauses.push(
        `key ${apiKey} was deleted${left.length > 0 ? `, although ${describeClaims(left)} still name${left.length > 1 ? '' : 's'} it` : ''}`,
      );
    }
    if (outcome === 'kept') clauses.push(`key ${apiKey} was not deleted: it is still on the service`);
  }
  return clauses;
}
