import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { credentialPlaces } from '../../core/credentials/places.js';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { ExitCode, TridentError } from '../../core/errors.js';
import { keyringKeyReference } from '../mint/key-files.js';
import { moveProfileKey, reportMove } from '../ledger/move.js';

const define = (group: GroupCommand) =>
  group
    .command('move-to-keyring')
    .summary("move the profile's private key into the OS keyring")
    .description(
      'Move the private key of the profile (keys.privateKeyFile) into the OS keyring, as keyring:trident/<dir tag>/keys/<api_key>. The entry is written and read back, the profile is pointed at it, and only then is the file removed; a file outside <config dir>/keys/ is yours and stays. A key already in the keyring is left as it is (exit 0). A keyring that is locked, absent or silent for 5 s is exit 2 with nothing changed.',
    );

export async function run(ctx: Context): Promise<void> {
  const unusable = credentialPlaces(ctx.env).keyring.unusable();
  if (unusable !== undefined)
    throw new TridentError(ExitCode.usage, `the OS keyring cannot be used: ${unusable}; nothing was moved`, {
      hint: 'unlock the keyring or start its session, then run the command again',
    });
  await reportMove(ctx, await moveProfileKey(ctx, isKeyringReference, (keyId) => keyringKeyReference(ctx, keyId)));
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident keys move-to-keyring', 'trident keys move-to-keyring --profile sandbox -o json'],
  run,
});
