import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';
import type { ResolvedSetting } from '../../core/files/settings.js';
import { KEYS_URL_ALIASES, keysUrlAlias } from '../../keys/base-url.js';
import { NO_SECRETS } from '../settings-help.js';

/** What an alias stands for (`keys.url demo` → the demo environment's URL); undefined for other values. */
function resolvedAlias(setting: ResolvedSetting): string | undefined {
  if (setting.key !== 'keys.url' || setting.value === undefined) return undefined;
  const alias = keysUrlAlias(setting.value);
  return alias && KEYS_URL_ALIASES[alias];
}

/** Where a value came from, named: the variable, the profile. */
function originOf(ctx: Context, setting: ResolvedSetting): string | null {
  switch (setting.source) {
    case 'env':
      return ctx.settings.origin(setting, '');
    case 'profile':
      return `profile "${ctx.profile}"`;
    case undefined:
      return null;
    default:
      return setting.source;
  }
}

const define = (group: GroupCommand) =>
  group
    .command('list')
    .summary('show every setting, its value and its source')
    .description(
      'Show every setting with its effective value and where it comes from: a flag, an environment variable (named), ' +
        'the profile (named) or the default ' +
        `("(unset)" when it has no value; "source" and "origin" in -o json). An alias shows what it stands for (keys.url demo = its URL; "resolved" in -o json). ${NO_SECRETS}`,
    );

/** Every setting with its effective value and where it came from (flag, env, profile or default), named. */
export async function run(ctx: Context): Promise<void> {
  const origin = (s: ResolvedSetting) => originOf(ctx, s);
  await ctx.output.list(
    ctx.settings.all(),
    [
      { header: 'key', value: (s: ResolvedSetting) => s.key },
      { header: 'value', value: (s) => (resolvedAlias(s) ? `${s.value} = ${resolvedAlias(s)}` : (s.value ?? '')) },
      { header: 'source', key: 'origin', value: (s) => (s.source === 'env' ? `env ${origin(s)}` : (origin(s) ?? '(unset)')) },
    ],
    (s) => {
      const resolved = resolvedAlias(s);
      return { key: s.key, value: s.value ?? null, source: s.source ?? null, origin: origin(s), ...(resolved ? { resolved } : {}) };
    },
  );
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident config list', 'trident --profile sandbox config list -o json'],
  run,
});
