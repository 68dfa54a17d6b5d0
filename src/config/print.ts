// config get and config path print a bare value for `$(trident config get …)`, whatever format a profile or
// TRIDENT_OUTPUT sets; a machine format asked for on the command line (-o json, ndjson, csv) gets an object.
import type { Context } from '../context.js';

export async function printBareOr(ctx: Context, bare: string, record: Record<string, unknown>): Promise<void> {
  const askedHere = ctx.settings.resolve('output').source === 'flag';
  if (askedHere && (ctx.format === 'json' || ctx.format === 'ndjson' || ctx.format === 'csv')) await ctx.output.object(record);
  else await ctx.output.write(`${bare}\n`);
}
