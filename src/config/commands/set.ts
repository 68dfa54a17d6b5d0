import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { assertSettingKey } from '../../core/settings.js';

export async function run(ctx: Context, _opts: object, key: string, value: string): Promise<void> {
  const setting = assertSettingKey(key);
  await ctx.settings.store.update(ctx.profile, { [setting]: value });
  ctx.log.info(`set ${setting} in profile "${ctx.profile}"`);
}

export function register(parent: Command, bind: Binder): void {
  examples(parent.command('set').summary('set a value in the current profile').argument('<key>').argument('<value>').action(bind(run)), [
    'trident config set keys.url https://api.example.com/trade-api/v2',
    'trident --profile ci config set output json',
  ]);
}
