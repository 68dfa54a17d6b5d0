import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import type { ResolvedSetting } from '../../core/settings.js';
import { NO_SECRETS } from '../settings-help.js';

/** Every setting with its effective value and where it came from (flag, env, profile or default). */
export async function run(ctx: Context): Promise<void> {
  await ctx.output.list(
    ctx.settings.all(),
    [
      { header: 'key', value: (s: ResolvedSetting) => s.key },
      { header: 'value', value: (s) => s.value ?? '' },
      { header: 'source', value: (s) => s.source ?? '(unset)' },
    ],
    (s) => ({ key: s.key, value: s.value ?? null, source: s.source ?? null }),
  );
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('list')
    .summary('show every setting, its value and its source')
    .description(
      'Show every setting with its effective value and where it comes from: flag, env, profile or default ' +
        `("(unset)" when it has no value). ${NO_SECRETS}`,
    );
  examples(command.action(bind(run)), [
    'trident config list',
    'trident --profile sandbox config list -o json',
  ]);
}
