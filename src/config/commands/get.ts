import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { notFoundError } from '../../core/errors.js';
import { assertSettingKey } from '../../core/files/settings.js';
import { printBareOr } from '../print.js';
import { NO_SECRETS, settingsHelp } from '../settings-help.js';

const define = (group: GroupCommand) =>
  group
    .command('get')
    .summary('print the effective value of a setting')
    .description(
      'Print the effective value of a setting (flag > environment > profile > default), bare, for scripts. ' +
        `A setting with no value prints nothing on stdout and exits 5. ${NO_SECRETS}`,
    )
    .argument('<key>', 'one of the settings below')
    .addHelpText('after', settingsHelp());

/** Prints the effective value (flag > env > profile > default): bare, or with -o json/ndjson/csv its key and source too. */
export async function run(ctx: Context, _opts: object, key: string): Promise<void> {
  const { value, source } = ctx.settings.resolve(assertSettingKey(key));
  const missingProfile = ctx.profile !== 'default' && !ctx.settings.store.hasProfile(ctx.profile);
  if (value === undefined && missingProfile) {
    const profiles = ctx.settings.store.profiles();
    throw notFoundError(`${key} is not set: profile "${ctx.profile}" does not exist`, {
      hint: profiles.length > 0 ? `profiles are: ${profiles.join(', ')}` : 'no profile is saved yet',
    });
  }
  if (value === undefined) throw notFoundError(`${key} is not set in profile "${ctx.profile}"`);
  if (missingProfile)
    ctx.log.warn(`profile "${ctx.profile}" does not exist: ${key} comes from ${source === 'env' ? 'the environment' : `the ${source}`}`);
  await printBareOr(ctx, value, { key, value, source });
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident config get keys.url', 'url=$(trident --profile sandbox config get catalog.url)'],
  run,
});
