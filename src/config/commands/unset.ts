import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { assertSettingKey } from '../../core/settings.js';

export async function run(ctx: Context, _opts: object, key: string): Promise<void> {
  const setting = assertSettingKey(key);
  await ctx.settings.store.update(ctx.profile, { [setting]: undefined });
  ctx.log.info(`unset ${setting} in profile "${ctx.profile}"`);
}

export function register(parent: Command, bind: Binder): void {
  examples(parent.command('unset').summary('remove a value from the current profile').argument('<key>').action(bind(run)), ['trident config unset caFile']);
}
