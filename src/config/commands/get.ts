import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { notFoundError } from '../../core/errors.js';
import { assertSettingKey } from '../../core/settings.js';

/** Prints the effective value (flag > env > profile > default), bare, for scripts. */
export async function run(ctx: Context, _opts: object, key: string): Promise<void> {
  const { value } = ctx.settings.resolve(assertSettingKey(key));
  if (value === undefined) throw notFoundError(`${key} is not set in profile "${ctx.profile}"`);
  ctx.io.stdout.write(`${value}\n`);
}

export function register(parent: Command, bind: Binder): void {
  examples(parent.command('get').summary('print the effective value of a setting').argument('<key>').action(bind(run)), [
    'trident config get keys.url',
    'url=$(trident --profile sandbox config get catalog.url)',
  ]);
}
