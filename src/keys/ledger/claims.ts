// Who names a key, or a place holding a private key, in one config dir: the profiles (keys.keyId,
// keys.privateKeyFile), the rotations in progress (their old and new key), the keys an overlap keeps, and the
// keys trident is deleting or has deleted. Everything is read afresh: another shell may have changed it since
// this command started. The ledger's verbs decide from these claims, under the settings lock, so that no
// command acts on a key without seeing every other use of it.
import { resolve } from 'node:path';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { SettingsStore } from '../../core/files/settings.js';
import { keyIdProblem } from '../key-ids.js';
import { listOverlaps, keyBeingDeleted, type OverlapEntry } from '../overlap/records.js';
import { allJournals, describeOwner, type Journal } from '../rotation/journal.js';

export type Claim =
  | { kind: 'profile'; profile: string }
  | { kind: 'rotation'; path: string; journal: Journal; role: 'old' | 'new' }
  | { kind: 'overlap'; entry: OverlapEntry }
  | { kind: 'deleting'; why: string };

/** Leaves out the claims of the one doing the asking. */
export interface Except {
  profile?: string;
  journalPath?: string;
}

/** Whether two places name the same private key: the same keyring entry, or the same file. */
export function samePlace(a: string, b: string): boolean {
  return isKeyringReference(a) || isKeyringReference(b) ? a === b : resolve(a) === resolve(b);
}

/** Everything that names the key `keyId`. */
export function keyClaims(configDir: string, keyId: string, except: Except = {}): Claim[] {
  const claims: Claim[] = profilesNaming(configDir, (values) => values['keys.keyId'] === keyId, except);
  for (const { path, journal } of allJournals(configDir)) {
    if (path === except.journalPath) continue;
    if (journal.old_key.api_key === keyId) claims.push({ kind: 'rotation', path, journal, role: 'old' });
    else if (journal.new_key?.api_key === keyId) claims.push({ kind: 'rotation', path, journal, role: 'new' });
  }
  if (keyIdProblem(keyId) !== undefined) return claims;
  for (const entry of listOverlaps(configDir)) if (entry.record.api_key === keyId) claims.push({ kind: 'overlap', entry });
  const deleting = keyBeingDeleted(configDir, keyId);
  if (deleting !== undefined) claims.push({ kind: 'deleting', why: deleting });
  return claims;
}

/** Everything that names `place` as where a private key is. */
export function placeClaims(configDir: string, place: string, except: Except = {}): Claim[] {
  const at = (other: string | null | undefined) => other != null && samePlace(other, place);
  const claims: Claim[] = profilesNaming(configDir, (values) => at(values['keys.privateKeyFile']), except);
  for (const { path, journal } of allJournals(configDir)) {
    if (path === except.journalPath) continue;
    if (at(journal.old_key.private_key_file)) claims.push({ kind: 'rotation', path, journal, role: 'old' });
    else if (at(journal.private_key_file)) claims.push({ kind: 'rotation', path, journal, role: 'new' });
  }
  for (const entry of listOverlaps(configDir)) if (at(entry.record.private_key_file)) claims.push({ kind: 'overlap', entry });
  return claims;
}

/** The profiles, as claims, whose stored values `names` picks. */
function profilesNaming(configDir: string, names: (values: Record<string, string | undefined>) => boolean, except: Except): Claim[] {
  const store = new SettingsStore(configDir);
  return store
    .profiles()
    .filter((profile) => profile !== except.profile && names(store.values(profile)))
    .map((profile) => ({ kind: 'profile', profile }));
}

/** `profile "ci"`, `the rotation of profile "ci" (journal …)`, `keys prune, which keeps it until …`. */
export function describeClaim(claim: Claim): string {
  switch (claim.kind) {
    case 'profile':
      return `profile "${claim.profile}"`;
    case 'rotation':
      return `the rotation of ${describeOwner(claim.journal.owner)} (as its ${claim.role} key; journal ${claim.path})`;
    case 'overlap':
      return `an overlap kept until ${claim.entry.record.kept_until} for trident keys prune (${claim.entry.path})`;
    case 'deleting':
      return `trident, which ${claim.why}`;
  }
}

/** `profile "a" and profile "b"`. */
export const describeClaims = (claims: readonly Claim[]): string => claims.map(describeClaim).join(' and ');

/** The profiles among the claims, by name. */
export const claimingProfiles = (claims: readonly Claim[]): string[] =>
  claims.flatMap((claim) => (claim.kind === 'profile' ? [claim.profile] : []));

/** The profiles other than `except` whose key is `keyId`, as `profile "name"`. */
export const profilesUsing = (configDir: string, keyId: string, except?: string): string[] =>
  profilesNaming(configDir, (values) => values['keys.keyId'] === keyId, { profile: except }).map(describeClaim);
