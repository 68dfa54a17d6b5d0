// How old a key is: the service's created_ts when it gives one, else trident's own record of when it made
// the key or first saw it in use (<config dir>/key-ages.json, 0600). The record is a convenience: failing to
// read or write it never fails a command (it is noted under --debug), but one that someone else could have
// planted is refused before anything is sent. It is changed under the settings lock, so that commands
// running at once (parallel jobs on one config dir) each keep their change.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.js';
import { TridentError, usageError } from '../core/errors.js';
import { readConfigFile } from '../core/files/config-files.js';
import { ensurePrivateDir } from '../core/files/private-dir.js';
import { writeSecretFile } from '../core/files/secret-file.js';
import type { ApiKey } from './client.js';

export type AgeSource = 'service' | 'made by trident' | 'first seen in use';

interface AgeRecord {
  since: string;
  how: 'made' | 'seen';
}

type Records = Record<string, AgeRecord>;

export interface KeyAge {
  seconds: number;
  source: AgeSource;
}

const UNITS: Record<string, number> = { m: 60, h: 3600, d: 86_400, w: 604_800 };

export const agesFile = (ctx: Pick<Context, 'configDir'>) => join(ctx.configDir, 'key-ages.json');

/** `90d`, `36h`, `30m`, `2w` → seconds; anything else is a usage error. */
export function parseAge(text: string, flag = '--if-older-than'): number {
  const match = /^(\d+(?:\.\d+)?)([mhdw])$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * UNITS[match[2]!]! : 0;
  if (!match || seconds <= 0) throw usageError(`${flag} must be a positive age such as 90d, 36h, 30m or 2w, not "${text}"`);
  return seconds;
}

/** created_ts as the service gives it: an ISO time, or epoch seconds/milliseconds. */
function serviceCreated(key: ApiKey): number | undefined {
  const value = key.created_ts;
  if (value === null || value === '') return undefined;
  const ms = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * The records; {} when there are none or they do not parse. A file someone else could have planted (a link,
 * another user's, writable by others) is refused (exit 2): ages decide which key a rotation replaces.
 */
function readRecords(ctx: Context): Records {
  const file = agesFile(ctx);
  try {
    const text = readConfigFile(ctx.configDir, file, 'key ages file');
    const parsed = text === undefined ? {} : (JSON.parse(text) as unknown);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Records) : {};
  } catch (error) {
    if (error instanceof TridentError) throw error;
    ctx.log.debug(`ignoring ${file}: ${(error as Error).message}`);
    return {};
  }
}

/** Before a keys command sends anything: the key ages file can be trusted (exit 2 otherwise). */
export function checkKeyAges(ctx: Context): void {
  readRecords(ctx);
}

/** `change` says whether it changed the records; it is tried without the lock first, as most calls change nothing. */
async function update(ctx: Context, change: (records: Records) => boolean): Promise<void> {
  const file = agesFile(ctx);
  if (!change(readRecords(ctx))) return;
  try {
    if (!existsSync(ctx.configDir)) ensurePrivateDir(ctx.configDir);
    // Under the settings lock, the one the key ledger decides under.
    await ctx.settings.store.whileLocked(async () => {
      const records = readRecords(ctx);
      if (change(records)) await writeSecretFile(file, `${JSON.stringify(records, null, 2)}\n`, { force: true });
    });
  } catch (error) {
    ctx.log.debug(`could not update ${file}: ${(error as Error).message}`);
  }
}

/** keys create / generate / rotate made this key now. */
export function recordKeyMade(ctx: Context, keyId: string): Promise<void> {
  return update(ctx, (records) => {
    records[keyId] = { since: ctx.now().toISOString(), how: 'made' };
    return true;
  });
}

/** The key signs requests now: remembered the first time only. */
export function recordKeyInUse(ctx: Context, keyId: string): Promise<void> {
  return update(ctx, (records) => {
    if (records[keyId]) return false;
    records[keyId] = { since: ctx.now().toISOString(), how: 'seen' };
    return true;
  });
}

/** A deleted key's record goes with it. */
export function forgetKey(ctx: Context, keyId: string): Promise<void> {
  return update(ctx, (records) => keyId in records && delete records[keyId]);
}

/** The age of each key where known, by id. */
export function keyAges(ctx: Context, keys: ApiKey[]): Map<string, KeyAge> {
  const records = readRecords(ctx);
  const now = ctx.now().getTime();
  const ages = new Map<string, KeyAge>();
  for (const key of keys) {
    const created = serviceCreated(key);
    const record = records[key.api_key];
    const recorded = record ? Date.parse(record.since) : NaN;
    if (created !== undefined) ages.set(key.api_key, { seconds: (now - created) / 1000, source: 'service' });
    else if (Number.isFinite(recorded))
      ages.set(key.api_key, { seconds: (now - recorded) / 1000, source: record!.how === 'made' ? 'made by trident' : 'first seen in use' });
  }
  return ages;
}
