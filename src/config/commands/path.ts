import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';

export async function run(ctx: Context): Promise<void> {
  ctx.io.stdout.write(`${ctx.settings.store.path}\n`);
}

export function register(parent: Command, bind: Binder): void {
  examples(parent.command('path').summary('print where the settings file is').action(bind(run)), ['trident config path']);
}
