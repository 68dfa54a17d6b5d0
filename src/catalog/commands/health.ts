import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { TridentError } from '../../core/errors.js';
import { addConnectionOptions, connect } from '../connection.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('health')
      .summary('check that the catalog service and its database are up')
      .description('Check the catalog service: exit 0 with {"status":"ok"}, exit 8 when it or its database is unavailable.'),
  );

/** Exit 0 when the service answers ok; its 503 (the database is unreachable) exits 8 with its detail. */
export async function run(ctx: Context, opts: OptionsOf<typeof define>): Promise<void> {
  const client = await connect(ctx, opts);
  try {
    await ctx.output.object(await client.health());
  } catch (error) {
    throw error instanceof TridentError ? explained(error) : error;
  }
}

/**
 * /healthz has no id to check: a 404 means the URL is not the service's base. A detail over several lines
 * (a database driver's message and its "Background on this error" link) keeps its first line in the message
 * and gives the rest as the hint, instead of one line with literal \n escapes.
 */
function explained(error: TridentError): TridentError {
  const details = { status: error.status, code: error.code, requestId: error.requestId, cause: error };
  if (error.status === 404) {
    return new TridentError(error.exitCode, error.message, {
      ...details,
      hint: `no catalog service answers at this URL: check --url (the service's base URL, without /healthz or another path)${error.requestId ? `; request id ${error.requestId}` : ''}`,
    });
  }
  const [first, ...rest] = error.message.split(/\r?\n/);
  const more = rest.map((line) => line.trim()).filter(Boolean);
  if (!more.length) return error;
  return new TridentError(error.exitCode, first!.trimEnd(), { ...details, hint: [...more, error.hint].filter(Boolean).join('; ') });
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident catalog health', 'trident catalog health --url http://127.0.0.1:8702 -o json'],
  run,
});
