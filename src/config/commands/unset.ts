import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { assertSettingKey } from '../../core/files/settings.js';
import { profileKeyCheck } from '../../keys/ledger/bind.js';
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
  await ctx.settings.store.update(ctx.profile, { [setting]: undefined }, profileKeyCheck(ctx.configDir, ctx.profile, setting));
  ctx.log.info(`unset ${setting} in profile "${ctx.profile}"`);
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident config unset caFile', 'trident --profile staging config unset catalog.url'],
  run,
});
