import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOption, connect, type ConnectionOptions } from '../connection.js';

/** Exit 0 when the service answers ok; its 503 (the database is unreachable) exits 8 with its detail. */
export async function run(ctx: Context, opts: ConnectionOptions): Promise<void> {
  const client = await connect(ctx, opts);
  await ctx.output.object(await client.health());
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('health')
    .summary('check that the catalog service and its database are up')
    .description('Check the catalog service: exit 0 with {"status":"ok"}, exit 8 when it or its database is unavailable.');
  examples(addConnectionOption(command).action(bind(run)), ['trident catalog health', 'trident catalog health --url http://127.0.0.1:8702 -o json']);
}
