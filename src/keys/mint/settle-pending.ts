// The next keys command against a service settles every pending record an earlier run left for it, and every
// `keys delete` an earlier run was cut short in, with one list of the service's keys, and tells the user in a
// line each what was settled.
import type { Context } from '../../context.js';
import type { ApiKey, KeysClient } from '../client.js';
import type { KeysConnection } from '../connection.js';
import { liveTools } from './live-tools.js';
import { settleCutShortDeletes } from '../ledger/delete.js';
import { cutShortDeletes } from '../overlap/records.js';
import { claimPending, releasePending, removePending, type PendingEntry } from './pending.js';
import { describeSettled, settleRecord, unknownIds, type MintTools } from './settle.js';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export async function settlePending(ctx: Context, connection: KeysConnection, client: KeysClient): Promise<void> {
  const url = connection.baseUrl.href;
  const entries = claimPending(ctx.configDir, url);
  const deletes = cutShortDeletes(ctx.configDir, url);
  if (entries.length === 0 && deletes.length === 0) return;
  let keys: ApiKey[];
  try {
    keys = await client.list();
  } catch (error) {
    for (const entry of entries) releasePending(entry);
    const what = [
      entries.length > 0 ? plural(entries.length, 'interrupted key request') : '',
      deletes.length > 0 ? plural(deletes.length, 'interrupted key delete') : '',
    ]
      .filter(Boolean)
      .join(' and ');
    ctx.log.warn(`${what} of an earlier run could not be settled now (${(error as Error).message}); the next keys command tries again`);
    return;
  }
  if (entries.length > 0) await settleRecords(ctx, liveTools(ctx, connection, client), entries, keys);
  const clauses = deletes.length > 0 ? await settleCutShortDeletes(ctx, deletes, keys) : [];
  if (clauses.length > 0)
    ctx.log.warn(`settled ${plural(clauses.length, 'interrupted key delete')} of an earlier run: ${clauses.join('; ')}`);
}

async function settleRecords(ctx: Context, tools: MintTools, entries: PendingEntry[], keys: ApiKey[]): Promise<void> {
  const clauses: string[] = [];
  const unknown: string[] = [];
  let settledAny = false;
  for (const entry of entries) {
    try {
      const settled = await settleRecord(entry.record, keys, tools);
      clauses.push(describeSettled(entry.record, settled));
      unknown.push(...unknownIds(settled));
      if (settled.kind === 'not yet') releasePending(entry);
      else {
        await removePending(entry);
        settledAny = true;
      }
    } catch (error) {
      releasePending(entry);
      clauses.push(
        `${entry.record.verb} "${entry.record.sent_name}": not settled yet (${(error as Error).message}), the next keys command tries again`,
      );
    }
  }
  ctx.log.warn(
    `${settledAny ? 'settled' : 'checked'} ${plural(entries.length, 'interrupted key request')} of an earlier run: ${clauses.join('; ')}`,
  );
  if (unknown.length > 0)
    ctx.log.warn(
      `outcome unknown for keys ${unknown.join(', ')}: check them with trident keys list, and delete one nobody holds with trident keys delete <api_key>`,
    );
}
