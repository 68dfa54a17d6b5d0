import { resolve } from 'node:path';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { preflightSecretPath } from '../../core/files/secret-file.js';
import { defaultKeyPath, preflightKeyTarget } from '../mint/key-files.js';
import { moveProfileKey, reportMove } from '../ledger/move.js';

const define = (group: GroupCommand) =>
  group
    .command('move-to-file')
    .summary("move the profile's private key from the OS keyring to a file")
    .description(
      'Move the private key of the profile from the OS keyring to a 0600 file: <config dir>/keys/<api_key>.pem, or --out. The file is written and read back, the profile is pointed at it, and only then is the keyring entry removed. A key already in a file is left as it is (exit 0); an --out that holds another key is refused (exit 2).',
    )
    .option('--out <file>', 'where to put the private key; default <config dir>/keys/<api_key>.pem');

export type MoveToFileOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: MoveToFileOptions): Promise<void> {
  const out = opts.out === undefined ? undefined : resolve(opts.out);
  // A file that holds this very key already (a move cut short) is taken; any other is refused when it is read.
  if (out === undefined) preflightKeyTarget(ctx, undefined);
  else preflightSecretPath(out, { force: true });
  const destination = (keyId: string) => out ?? defaultKeyPath(ctx, keyId);
  await reportMove(ctx, await moveProfileKey(ctx, (place) => !isKeyringReference(place), destination));
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident keys move-to-file', 'trident keys move-to-file --profile sandbox --out ./sandbox.pem -o json'],
  run,
});
