import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { assertSettingKey } from '../../core/files/settings.js';
import { changeProfile } from '../../keys/ledger/bind.js';
import { settingsHelp } from '../settings-help.js';

const define = (group: GroupCommand) =>
  group
    .command('unset')
    .summary('remove a value from the current profile')
    .description(
      'Remove a setting from the current profile; its value then comes from a flag, the environment or the default, if any. ' +
        'Removing a setting that is not set is not an error.',
    )
    .argument('<key>', 'one of the settings below')
    .addHelpText('after', settingsHelp());

export async function run(ctx: Context, _opts: object, key: string): Promise<void> {
  const setting = assertSettingKey(key);
  await changeProfile(ctx.settings.store, ctx.profile, { [setting]: undefined });
  ctx.log.info(`unset ${setting} in profile "${ctx.profile}"`);
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident config unset caFile', 'trident --profile staging config unset catalog.url'],
  run,
});
