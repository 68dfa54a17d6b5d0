import { resolve } from 'node:path';
import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { assertSettingKey } from '../../core/files/settings.js';
import { profileKeyCheck } from '../../keys/ledger/bind.js';
import { settingsHelp } from '../settings-help.js';

/**
 * Paths are kept absolute: cron and CI run trident from another directory than the one it was set up in. A
 * keyring entry (keyring:<service>/<account>) is no path.
 */
const PATH_SETTINGS: readonly string[] = ['keys.privateKeyFile', 'caFile'];

const define = (group: GroupCommand) =>
  group
    .command('set')
    .summary('set a value in the current profile')
    .description(
      'Set a setting in the current profile (--profile, TRIDENT_PROFILE, default "default"), in the settings file (mode 0600). ' +
        'The value is checked first: URLs must be http:// or https://, time.authScheme and output take one of their values; file paths are stored absolute. ' +
        'A profile that does not exist yet is created (and said so on stderr). ' +
        'A flag or an environment variable still wins over the profile (see trident config list).',
    )
    .argument('<key>', 'one of the settings below')
    .argument('<value>', 'the new value')
    .addHelpText('after', settingsHelp());

export async function run(ctx: Context, _opts: object, key: string, value: string): Promise<void> {
  const setting = assertSettingKey(key);
  const stored = PATH_SETTINGS.includes(setting) && value !== '' && !isKeyringReference(value) ? resolve(value) : value;
  // A misspelt --profile or TRIDENT_PROFILE would otherwise make a new profile without a word.
  const creating = !ctx.settings.store.hasProfile(ctx.profile);
  await ctx.settings.store.update(ctx.profile, { [setting]: stored }, profileKeyCheck(ctx.configDir, ctx.profile, setting));
  if (creating) ctx.log.info(`created profile "${ctx.profile}" (it did not exist; see trident config profiles)`);
  ctx.log.info(`set ${setting} in profile "${ctx.profile}"${stored !== value ? ` to ${stored}` : ''}`);
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident config set keys.url https://api.example.com/trade-api/v2', 'trident --profile ci config set output json'],
  run,
});
