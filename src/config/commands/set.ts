import { resolve } from 'node:path';
import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { usageError } from '../../core/errors.js';
import { assertSettingKey, type SettingKey } from '../../core/files/settings.js';
import { changeProfile } from '../../keys/ledger/bind.js';
import { settingsHelp } from '../settings-help.js';

/**
 * Paths are kept absolute: cron and CI run trident from another directory than the one it was set up in. A
 * keyring entry (keyring:<service>/<account>) is no path.
 */
const PATH_SETTINGS: readonly string[] = ['keys.privateKeyFile', 'caFile'];

const define = (group: GroupCommand) =>
  group
    .command('set')
    .summary('set values in the current profile')
    .description(
      'Set settings in the current profile (--profile, TRIDENT_PROFILE, default "default"), in the settings file (mode 0600). ' +
        'Several <key> <value> pairs are written in one update, all or none: a key id set with its private key file is checked ' +
        'as that pair, and refused or written whole. ' +
        'Each value is checked first: URLs must be http:// or https://, time.authScheme and output take one of their values; file paths are stored absolute. ' +
        'A profile that does not exist yet is created (and said so on stderr). ' +
        'A flag or an environment variable still wins over the profile (see trident config list).',
    )
    .argument('<key>', 'one of the settings below')
    .argument('<value>', 'the new value')
    .argument('[more...]', 'more <key> <value> pairs, written in the same update')
    .addHelpText('after', settingsHelp());

/** The settings a command line names, each with the value to store; refused (exit 2) unless they pair up, each key once. */
export function settingPairs(words: readonly string[]): Map<SettingKey, string> {
  if (words.length % 2 !== 0)
    throw usageError(`"${words[words.length - 1]}" has no value: config set takes <key> <value> pairs`, 'nothing was set');
  const pairs = new Map<SettingKey, string>();
  for (let index = 0; index < words.length; index += 2) {
    const setting = assertSettingKey(words[index]!);
    if (pairs.has(setting)) throw usageError(`${setting} given twice: config set takes each setting once`, 'nothing was set');
    const value = words[index + 1]!;
    pairs.set(setting, PATH_SETTINGS.includes(setting) && value !== '' && !isKeyringReference(value) ? resolve(value) : value);
  }
  return pairs;
}

export async function run(ctx: Context, _opts: object, key: string, value: string, more: string[] = []): Promise<void> {
  const words = [key, value, ...more];
  const pairs = settingPairs(words);
  // A misspelt --profile or TRIDENT_PROFILE would otherwise make a new profile without a word.
  const creating = !ctx.settings.store.hasProfile(ctx.profile);
  await changeProfile(ctx.settings.store, ctx.profile, Object.fromEntries(pairs));
  if (creating) ctx.log.info(`created profile "${ctx.profile}" (it did not exist; see trident config profiles)`);
  for (const [index, [setting, stored]] of [...pairs].entries()) {
    const given = words[index * 2 + 1];
    ctx.log.info(`set ${setting} in profile "${ctx.profile}"${stored !== given ? ` to ${stored}` : ''}`);
  }
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident config set keys.url https://api.example.com/trade-api/v2',
    'trident --profile ci config set output json',
    'trident --profile ci config set keys.keyId "$KEY_ID" keys.privateKeyFile ./key.pem',
  ],
  run,
});
