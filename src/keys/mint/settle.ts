// Settling a pending record (DESIGN §4): what became of a create or generate whose answer never arrived, found
// in one list of the service's keys. A generated key whose private half is nowhere here is deleted, but only
// when trident can prove it is its own: exactly one new key of that name, with the scopes asked for. A key
// made from a pair made here is proved by signing with its staged private half, and kept.
import { existsSync, readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import type { Context } from '../../context.js';
import { ExitCode, TridentError } from '../../core/errors.js';
import { moveSecretFile, removeSecretFile } from '../../core/files/secret-file.js';
import type { ApiKey, KeysClient } from '../client.js';
import { openKeysClient, signerFromFile, type KeysConnection } from '../connection.js';
import { defaultKeyPath } from './key-files.js';
import { keyIdProblem } from '../key-ids.js';
import { privateKeyFromPem } from './keypair.js';
import { checkedUntil, mayStillAppear, type PendingRecord } from './pending.js';

export type Settled =
  | { kind: 'none made' }
  /** No key of that name is listed yet, but the service may still make it (pending.ts: LATE_KEY_WINDOW_MS): the record stays. */
  | { kind: 'not yet' }
  /** create: the staged private half is gone, so it was placed (or never written, and nothing was sent). */
  | { kind: 'nothing left' }
  | { kind: 'deleted'; id: string }
  | { kind: 'kept'; id: string; file: string }
  /** create --public-key: the keys of that name now; their private half is the user's own. */
  | { kind: 'uploaded'; ids: string[] }
  | { kind: 'unknown'; ids: string[] };

export interface SettleTools {
  client: Pick<KeysClient, 'delete'>;
  /** True when a request signed by `privateKey` as key `id` is accepted. */
  accepts(id: string, privateKey: KeyObject): Promise<boolean>;
  keyPath(id: string): string;
  now(): Date;
  /** The private key in `path`, or undefined if it is not a readable one. */
  readKey(id: string, path: string): KeyObject | undefined;
}

export function liveTools(ctx: Context, connection: KeysConnection, client: KeysClient): SettleTools {
  return {
    client,
    async accepts(id, privateKey) {
      const probe = await openKeysClient(ctx, { baseUrl: connection.baseUrl, signer: { keyId: id, privateKey, source: 'the private key made for it' } });
      return probe.list().then(
        () => true,
        (error: unknown) => {
          if (error instanceof TridentError && error.exitCode === ExitCode.auth) return false;
          throw error;
        },
      );
    },
    keyPath: (id) => defaultKeyPath(ctx, id),
    now: () => ctx.now(),
    readKey(id, path) {
      try {
        return signerFromFile(ctx, id, path).privateKey;
      } catch {
        return undefined;
      }
    },
  };
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item) => b.includes(item));

/** The keys of the record's name that did not exist before it was written. */
function newKeys(record: PendingRecord, keys: ApiKey[]): ApiKey[] {
  const before = new Set(record.before ?? []);
  return keys.filter((key) => key.name === record.name && !before.has(key.api_key));
}

/** Where a generated key's private half would be if it was stored before the process died. */
function storedFile(record: PendingRecord, id: string, tools: SettleTools): string | undefined {
  if (record.target_file === '-') return undefined;
  return record.target_file ?? tools.keyPath(id);
}

async function settleGenerate(record: PendingRecord, candidates: ApiKey[], tools: SettleTools): Promise<Settled> {
  if (candidates.some((key) => keyIdProblem(key.api_key) !== undefined)) return { kind: 'unknown', ids: candidates.map((key) => key.api_key) };
  const orphans: ApiKey[] = [];
  for (const key of candidates) {
    const file = storedFile(record, key.api_key, tools);
    const privateKey = file !== undefined && existsSync(file) ? tools.readKey(key.api_key, file) : undefined;
    if (privateKey !== undefined && (await tools.accepts(key.api_key, privateKey))) return { kind: 'kept', id: key.api_key, file: file! };
    orphans.push(key);
  }
  if (orphans.length === 0) return { kind: 'none made' };
  const [only] = orphans;
  if (orphans.length === 1 && sameSet(only!.scopes, record.scopes)) {
    await tools.client.delete(only!.api_key);
    return { kind: 'deleted', id: only!.api_key };
  }
  return { kind: 'unknown', ids: orphans.map((key) => key.api_key) };
}

async function settleCreate(record: PendingRecord, candidates: ApiKey[], tools: SettleTools): Promise<Settled> {
  const staged = record.staged_file!;
  if (!existsSync(staged)) return { kind: 'nothing left' };
  const privateKey = privateKeyFromPem(readFileSync(staged, 'utf8'), `the staged private key ${staged}`);
  for (const key of candidates) {
    if (keyIdProblem(key.api_key) !== undefined || !(await tools.accepts(key.api_key, privateKey))) continue;
    const file = record.target_file ?? tools.keyPath(key.api_key);
    try {
      await moveSecretFile(staged, file, { force: record.force });
      return { kind: 'kept', id: key.api_key, file };
    } catch {
      return { kind: 'kept', id: key.api_key, file: staged };
    }
  }
  await removeSecretFile(staged);
  return { kind: 'none made' };
}

/** What became of the record's request, found in `keys` (one list of the service's keys); acts on it. */
export async function settleRecord(record: PendingRecord, keys: ApiKey[], tools: SettleTools): Promise<Settled> {
  const candidates = newKeys(record, keys);
  if (candidates.length === 0 && !record.uploaded && mayStillAppear(record, tools.now())) return { kind: 'not yet' };
  if (record.uploaded) return candidates.length === 0 ? { kind: 'none made' } : { kind: 'uploaded', ids: candidates.map((key) => key.api_key) };
  return record.verb === 'generate' ? settleGenerate(record, candidates, tools) : settleCreate(record, candidates, tools);
}

/** One clause of the line that tells the user what was settled. */
export function describeSettled(record: PendingRecord, settled: Settled): string {
  const what = `${record.verb} "${record.name}"`;
  switch (settled.kind) {
    case 'none made':
      return `${what}: no key was made`;
    case 'not yet':
      return `${what}: no key of that name is listed yet; keys commands check again ${checkedUntil(record)}`;
    case 'nothing left':
      return `${what}: nothing was left to do`;
    case 'deleted':
      return `${what}: deleted key ${settled.id}, whose private key never arrived`;
    case 'kept':
      return `${what}: kept key ${settled.id}, its private key in ${settled.file}`;
    case 'uploaded':
      return `${what}: key ${settled.ids.join(', ')} was made from your public key`;
    case 'unknown':
      return `${what}: outcome unknown, new keys of that name (${settled.ids.join(', ')}) that trident cannot prove its own, so none was deleted`;
  }
}
