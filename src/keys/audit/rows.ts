// What keys audit says of each key of the account: its age and where that comes from, where its private half
// is held here, and the flags a policy can fail on.
import type { Context } from '../../context.js';
import { usageError } from '../../core/errors.js';
import type { ApiKey } from '../client.js';
import { keyAges } from '../key-ages.js';
import { listPending } from '../mint/pending.js';
import { listOverlaps } from '../overlap/records.js';
import { journalsOfKey } from '../rotation/journal.js';
import { privateHalfHolders, type Holder, type SignerOutsideProfiles } from './holders.js';

export const FLAGS = ['unheld', 'old', 'rotating', 'overlap'] as const;
export type Flag = (typeof FLAGS)[number];

export interface AuditRow extends ApiKey {
  age_seconds: number | null;
  age_source: 'service' | 'made by trident' | 'first seen in use' | 'unknown';
  in_use: boolean;
  held_by: Holder[];
  flags: Flag[];
  /** overlap: when keys prune may delete the key. */
  kept_until: string | null;
}

/** `--fail-on unheld,old`: the flags named, each one of FLAGS (exit 2 listing them otherwise). */
export function parseFailOn(text: string | undefined, maxAge: number | undefined): Flag[] {
  if (text === undefined) return [];
  const names = text.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(FLAGS as readonly string[]).includes(name))
      throw usageError(`unknown flag "${name}" in --fail-on "${text}"`, `the flags are: ${FLAGS.join(', ')} (separated by commas)`);
  }
  if (names.includes('old') && maxAge === undefined)
    throw usageError('--fail-on old needs --max-age, the age past which a key is old (e.g. 90d)');
  return [...new Set(names as Flag[])];
}

/** The names of the keys that a mint under way (a pending record) is making: their id is not known yet. */
const namesBeingMade = (ctx: Context): Set<string> => new Set(listPending(ctx.configDir).map((entry) => entry.record.sent_name));

export function auditRows(
  ctx: Context,
  keys: ApiKey[],
  inUse: string,
  outside: SignerOutsideProfiles | undefined,
  maxAge?: number,
): AuditRow[] {
  const ages = keyAges(ctx, keys);
  const holders = privateHalfHolders(
    ctx,
    keys.map((key) => key.api_key),
    outside,
  );
  const overlaps = new Map(listOverlaps(ctx.configDir).map(({ record }) => [record.api_key, record]));
  const beingMade = namesBeingMade(ctx);
  return keys.map((key) => {
    const age = ages.get(key.api_key);
    const heldBy = holders.get(key.api_key) ?? [];
    const overlap = overlaps.get(key.api_key);
    const rotating = journalsOfKey(ctx.configDir, key.api_key).length > 0 || beingMade.has(key.name);
    const flags: Flag[] = [];
    if (heldBy.length === 0) flags.push('unheld');
    if (maxAge !== undefined && age !== undefined && age.seconds > maxAge) flags.push('old');
    if (rotating) flags.push('rotating');
    if (overlap) flags.push('overlap');
    return {
      ...key,
      age_seconds: age ? Math.floor(age.seconds) : null,
      age_source: age?.source ?? 'unknown',
      in_use: key.api_key === inUse,
      held_by: heldBy,
      flags,
      kept_until: overlap?.kept_until ?? null,
    };
  });
}
