// A keys command's client once what an earlier run left pending against its service is settled, so that no key
// is left that nobody holds. Apart from connection.ts, which the settlement itself uses to sign its probes.
import type { Context } from '../context.js';
import type { KeysClient } from './client.js';
import { openKeysClient, type KeysConnection } from './connection.js';
import { anyPending } from './mint/pending.js';
import { cutShortDeletes } from './overlap/records.js';

/** Before a command's own requests: settles what an earlier run left pending against this service. */
export async function settleEarlierRequests(ctx: Context, connection: KeysConnection, client?: KeysClient): Promise<void> {
  if (!anyPending(ctx.configDir) && cutShortDeletes(ctx.configDir).length === 0) return;
  const { settlePending } = await import('./mint/settle-pending.js');
  await settlePending(ctx, connection, client ?? (await openKeysClient(ctx, connection)));
}

/** The command's client, once what an earlier run left pending against its service is settled. */
export async function openSettledClient(ctx: Context, connection: KeysConnection): Promise<KeysClient> {
  const client = await openKeysClient(ctx, connection);
  await settleEarlierRequests(ctx, connection, client);
  return client;
}
