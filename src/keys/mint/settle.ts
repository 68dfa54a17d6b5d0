// Settling a pending record: what became of a create or generate whose answer never arrived, found in one
// list of the service's keys. Only a key this request provably made is ever touched: for a generate, the key
// carrying the request's tag (tag.ts); for a pair made here, the key that accepts a request signed with the
// staged private half. Such a key is kept where its private half is on this machine, and deleted where it is
// nowhere (or nobody wants it any more). Every other candidate is reported by id as an unknown outcome.
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { keyringOutOfReach, type CredentialPlaces } from '../../core/credentials/places.js';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { ensurePrivateDir } from '../../core/files/private-dir.js';
import { removeSecretFile } from '../../core/files/secret-file.js';
import type { ApiKey, KeysClient } from '../client.js';
import type { Checkpoint } from '../crash-points.js';
import { keyIdProblem } from '../key-ids.js';
import { checkedUntil, mayStillAppear, type PendingRecord } from './pending.js';

/** What settlement (and the mint itself) needs from the outside world; tests give fakes. */
export interface MintTools {
  client: Pick<KeysClient, 'list' | 'generate' | 'create' | 'delete'>;
  /** True when a request signed by `privateKey` as key `id` is accepted. */
  accepts(id: string, privateKey: KeyObject): Promise<boolean>;
  /** Where a new key with no --out goes: its keyring entry or <config dir>/keys/<api_key>.pem. */
  keyPath(id: string): string;
  /** Every place a key with no --out may have been put, by this command or an earlier one. */
  defaultPlaces(id: string): string[];
  /** Whether a key with no --out goes to its keyring entry (asked only when a key is minted). */
  defaultsToKeyring(): boolean;
  /** The private key at `place` (a file or a keyring entry), or undefined if it is not a readable one. */
  readKey(id: string, place: string): Promise<KeyObject | undefined>;
  /** Files and keyring entries. */
  places: CredentialPlaces;
  now(): Date;
  configDir: string;
  /** The key service's base URL, as records name it. */
  url: string;
  checkpoint: Checkpoint;
  /** A warning for the user (stderr). */
  warn(message: string): void;
}

export type KeyOutcome =
  | { id: string; outcome: 'kept'; file: string }
  | { id: string; outcome: 'deleted' }
  /** create --public-key: the private half is the user's own. */
  | { id: string; outcome: 'uploaded' }
  | { id: string; outcome: 'unknown' };

export type Settled =
  /** No key of the request is listed yet, but the service may still make it: the record stays. */
  | { kind: 'not yet' }
  /** Every key the request made (none: no key was made), and what became of each. */
  | { kind: 'settled'; keys: KeyOutcome[] };

const settled = (keys: KeyOutcome[]): Settled => ({ kind: 'settled', keys });

/** The keys the request may have made: its name (tag included), and for an earlier trident's record, new since. */
function candidatesOf(record: PendingRecord, keys: ApiKey[]): ApiKey[] {
  const before = new Set(record.before ?? []);
  return keys.filter((key) => key.name === record.sent_name && !before.has(key.api_key));
}

/** Where a key's private half may be if it was stored before the process died. */
function storedPlaces(record: PendingRecord, id: string, tools: MintTools): string[] {
  if (record.target_file === '-') return [];
  return record.target_file !== null ? [record.target_file] : tools.defaultPlaces(id);
}

/**
 * The first of `places` that holds the key's private half. For a key bound for the keyring (and wanted), a
 * keyring that cannot be asked (no session bus over ssh, locked) is no proof of absence: exit 4, and the record
 * stays for a command that can ask it.
 */
async function heldAt(tools: MintTools, record: PendingRecord, id: string, places: string[]): Promise<string | undefined> {
  for (const place of places) {
    const strict = record.keyring === true && !record.unwanted && isKeyringReference(place);
    const privateKey =
      (strict ? readKeyring(tools, place) : tools.places.peek(place)) !== undefined ? await tools.readKey(id, place) : undefined;
    if (privateKey !== undefined && (await tools.accepts(id, privateKey))) return place;
  }
  return undefined;
}

function readKeyring(tools: MintTools, place: string): string | undefined {
  try {
    return tools.places.read(place);
  } catch (error) {
    throw keyringOutOfReach(error, (reason) => `cannot tell whether ${place} holds the key's private half: ${reason}`);
  }
}

/**
 * Where a kept key's private half goes. The command whose own answer was lost puts it at the --out its user asked
 * for (a script reads it there next), if that is still free. A later command's settlement puts it at
 * <config dir>/keys/<api_key>.pem, a name no later write can take: that command may go on to write its own new key
 * to the --out the record named, with --force. Where the move fails, the staged file keeps it.
 */
async function placeKept(tools: MintTools, record: PendingRecord, staged: string, id: string, own: boolean): Promise<string> {
  const asked = record.target_file;
  const home = own && asked !== null && asked !== '-' && tools.places.peek(asked) === undefined ? asked : tools.keyPath(id);
  try {
    if (!isKeyringReference(home) && !existsSync(dirname(home))) ensurePrivateDir(dirname(home));
    await tools.places.moveFile(staged, home);
    return home;
  } catch {
    return staged;
  }
}

/** The same for a generated key stored at its --out: a copy goes to its default place too. */
async function keepCopy(tools: MintTools, place: string, id: string): Promise<string> {
  const defaults = tools.defaultPlaces(id);
  if (defaults.includes(place)) return place;
  const keyPath = tools.keyPath(id);
  if (tools.places.peek(keyPath) !== undefined) return keyPath;
  try {
    await tools.places.write(keyPath, tools.places.read(place)!);
    return keyPath;
  } catch {
    return place;
  }
}

async function deleteKey(tools: MintTools, id: string, place?: string): Promise<KeyOutcome> {
  await tools.client.delete(id);
  if (place !== undefined) await tools.places.remove(place);
  return { id, outcome: 'deleted' };
}

async function settleGenerate(record: PendingRecord, candidates: ApiKey[], tools: MintTools): Promise<KeyOutcome[]> {
  const outcomes: KeyOutcome[] = [];
  // A tag proves the key this request's; by name alone (an earlier trident's record) nothing is proven.
  const proven = record.version === 2;
  for (const { api_key: id } of candidates) {
    // An id that would change a path or a URL is never used, not even to delete the key.
    if (keyIdProblem(id) !== undefined) {
      outcomes.push({ id, outcome: 'unknown' });
      continue;
    }
    const held = await heldAt(tools, record, id, storedPlaces(record, id, tools));
    if (held !== undefined && !record.unwanted) outcomes.push({ id, outcome: 'kept', file: await keepCopy(tools, held, id) });
    else if (!proven) outcomes.push({ id, outcome: 'unknown' });
    else outcomes.push(await deleteKey(tools, id, held));
  }
  return outcomes;
}

async function settleCreate(record: PendingRecord, candidates: ApiKey[], tools: MintTools, own: boolean): Promise<Settled> {
  const staged = record.staged_file!;
  const stagedKey = existsSync(staged) ? await tools.readKey('', staged) : undefined;
  const outcomes: KeyOutcome[] = [];
  let found = false;
  for (const { api_key: id } of candidates) {
    const usable = keyIdProblem(id) === undefined;
    if (stagedKey !== undefined && !found && usable && (await tools.accepts(id, stagedKey))) {
      found = true;
      // A move cut short leaves the same key in both places.
      const pem = readFileSync(staged, 'utf8');
      const target =
        storedPlaces(record, id, tools).find((place) => tools.places.peek(place) === pem) ?? record.target_file ?? tools.keyPath(id);
      const placedAlready = tools.places.peek(target) === pem;
      if (record.unwanted) {
        outcomes.push(await deleteKey(tools, id, placedAlready ? target : undefined));
        await removeSecretFile(staged);
        continue;
      }
      if (placedAlready) await removeSecretFile(staged);
      outcomes.push({ id, outcome: 'kept', file: placedAlready ? target : await placeKept(tools, record, staged, id, own) });
      continue;
    }
    // The staged half is gone: it was moved into place before the process died, or never written.
    const held = stagedKey === undefined && usable ? await heldAt(tools, record, id, storedPlaces(record, id, tools)) : undefined;
    if (held !== undefined)
      outcomes.push(record.unwanted ? await deleteKey(tools, id, held) : { id, outcome: 'kept', file: await keepCopy(tools, held, id) });
    else outcomes.push({ id, outcome: 'unknown' });
  }
  if (!found && stagedKey !== undefined && mayStillAppear(record, tools.now())) return { kind: 'not yet' };
  if (!found) await removeSecretFile(staged);
  return settled(outcomes);
}

/**
 * What became of the record's request, found in `keys` (one list of the service's keys); acts on it. `own`: the
 * command settling it is the one that made the request (its answer was lost a moment ago).
 */
export async function settleRecord(record: PendingRecord, keys: ApiKey[], tools: MintTools, own = false): Promise<Settled> {
  const candidates = candidatesOf(record, keys);
  if (record.uploaded) return settled(candidates.map(({ api_key: id }) => ({ id, outcome: 'uploaded' })));
  if (record.verb === 'create') return settleCreate(record, candidates, tools, own);
  if (candidates.length === 0) return mayStillAppear(record, tools.now()) ? { kind: 'not yet' } : settled([]);
  return settled(await settleGenerate(record, candidates, tools));
}

export const unknownIds = (result: Settled): string[] =>
  result.kind === 'settled' ? result.keys.filter((key) => key.outcome === 'unknown').map((key) => key.id) : [];

/** "kept key k1 (its private key in f); deleted key k2, whose private key never arrived" */
export function describeKeys(keys: KeyOutcome[], record: PendingRecord): string {
  if (keys.length === 0) return 'no key was made';
  return keys
    .map((key) => {
      switch (key.outcome) {
        case 'kept':
          return `kept key ${key.id}, its private key in ${key.file}`;
        case 'deleted':
          return record.unwanted
            ? `deleted key ${key.id}, which nobody wanted any more`
            : `deleted key ${key.id}, whose private key never arrived`;
        case 'uploaded':
          return `key ${key.id} was made from your public key`;
        case 'unknown':
          return `outcome unknown for key ${key.id} (named "${record.sent_name}"), which trident cannot prove its own, so it was not deleted`;
      }
    })
    .join('; ');
}

/** One clause of the line that tells the user what was settled. */
export function describeSettled(record: PendingRecord, result: Settled): string {
  const what = `${record.verb} "${record.sent_name}"`;
  if (result.kind === 'not yet') return `${what}: no key of that request is listed yet; keys commands check again ${checkedUntil(record)}`;
  return `${what}: ${describeKeys(result.keys, record)}`;
}
