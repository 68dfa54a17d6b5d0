import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { ExitCode, TridentError, batchExitCode, cancelledError, errorLines, usageError } from '../../core/errors.js';
import type { Column } from '../../core/term/output/columns.js';
import { addConnectionOptions, resolveConnection } from '../connection.js';
import { openSettledClient } from '../settled-client.js';
import { checkKeyId } from '../key-ids.js';
import { pacedDeletes } from '../delete-batch.js';
import { noteDeletes, refuseClaimedKeys, settleDelete } from '../ledger/delete.js';

/** One per id: `result` is 'deleted', 'already deleted', 'not found' or the error's message. */
export interface DeleteResult {
  api_key: string;
  deleted: boolean;
  result: string;
}

const COLUMNS: Array<Column<DeleteResult>> = [
  { header: 'id', key: 'api_key', value: (row) => row.api_key },
  { header: 'result', value: (row) => row.result },
];

function reportFailure(ctx: Context, error: TridentError): void {
  ctx.io.stderr.write(errorLines(error.message, error.hint));
}

/** Deleting the key that signs this command's requests would lock the profile (or the pipeline) out. */
function refuseKeyInUse(ctx: Context, opts: DeleteOptions, keyId: string, ids: string[]): void {
  if (opts.force || !ids.includes(keyId)) return;
  const source = ctx.settings.resolve('keys.keyId', opts.keyId).source;
  const owner = source === 'profile' ? `profile "${ctx.profile}"` : source === 'env' ? 'TRIDENT_KEY_ID' : '--key-id';
  throw usageError(
    `key ${keyId} is the key in use (${owner}): deleting it would leave nothing to sign the next request with`,
    'replace it with trident keys rotate, or pass --force to delete it anyway',
  );
}

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('delete')
      .summary('delete API keys')
      .description(
        'Delete one or more API keys. Asks first on a terminal; elsewhere --yes is required. A key that a profile of the config dir uses, or that a rotation in progress or a kept old key (--keep-old-for) names, is refused before anything is sent (exit 2), saying who; --force deletes it anyway and names who is left with a deleted key. Trident\'s own copy of a deleted key\'s private half (<config dir>/keys/<api_key>.pem, its keyring entry) is removed; a file of yours is left and named. A missing key exits 5 unless --ignore-missing; with several keys each gets its own result and the exit code is that of the worst failure (the highest code). After a rate limit (429) the deletes that follow are spaced out, longer with each further 429. The key in use (the one that signs the request) is refused unless --force: replace it with keys rotate instead. An id such as ".", ".." or one holding "/" is refused before anything is sent.',
      )
      .argument('<api_key...>', 'ids of the keys to delete')
      .option('--ignore-missing', 'a key that does not exist counts as deleted (exit 0, with a note)')
      .option('--force', 'delete a key in use or named by a profile, rotation or kept key too (they can then sign nothing with it)'),
  );

export type DeleteOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: DeleteOptions, ids: string[]): Promise<number> {
  const unique = [...new Set(ids.map(checkKeyId))];
  const connection = await resolveConnection(ctx, opts);
  refuseKeyInUse(ctx, opts, connection.signer.keyId, unique);
  refuseClaimedKeys(ctx, unique, opts.force);
  const client = await openSettledClient(ctx, connection);
  const question = unique.length === 1 ? `Delete key ${unique[0]}?` : `Delete ${unique.length} keys (${unique.join(', ')})?`;
  if (!(await ctx.prompter.confirm(question))) throw cancelledError('cancelled: nothing deleted');
  const noted = await noteDeletes(ctx, unique, opts.force, connection.baseUrl.href);

  const results: DeleteResult[] = [];
  const codes: number[] = [];
  const deletes = pacedDeletes(client);
  for (const [index, id] of unique.entries()) {
    const quietBefore = !deletes.spacing();
    let rateLimited = false;
    let deleted = false;
    try {
      const outcome = await deletes.delete(id, () => (rateLimited = true));
      if (outcome === 'not found' && !opts.ignoreMissing) {
        throw new TridentError(ExitCode.notFound, `key ${id} not found`, {
          hint: 'pass --ignore-missing to treat a missing key as deleted',
        });
      }
      if (outcome === 'not found') ctx.log.info(`key ${id} was not found (ignored: --ignore-missing)`);
      if (outcome === 'already deleted') ctx.log.info(`key ${id}: a retried delete found it gone; the first attempt deleted it`);
      deleted = outcome !== 'not found';
      results.push({ api_key: id, deleted, result: outcome });
    } catch (error) {
      if (!(error instanceof TridentError)) throw error;
      reportFailure(ctx, error);
      results.push({ api_key: id, deleted: false, result: error.exitCode === ExitCode.notFound ? 'not found' : error.message });
      codes.push(error.exitCode);
    } finally {
      await settleDelete(ctx, id, deleted, noted);
      const more = index < unique.length - 1;
      if (rateLimited && more && quietBefore) ctx.log.info('the keys service is rate limiting (429): spacing the deletes that follow');
    }
  }
  await ctx.output.list(results, COLUMNS);
  return batchExitCode(codes);
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident keys delete 0f9e8d7c-1111-2222-3333-444455556666', 'trident keys delete --yes --ignore-missing KEY_A KEY_B -o json'],
  run,
});
