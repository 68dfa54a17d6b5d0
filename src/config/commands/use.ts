// `trident config use <profile>`: the profile commands use when neither --profile nor TRIDENT_PROFILE names one,
// as kubectl's `config use-context` does for contexts.
import { defineCommand, type GroupCommand } from '../../command.js';
import type { Context } from '../../context.js';

const define = (group: GroupCommand) =>
  group
    .command('use')
    .summary('make a profile the default one')
    .description(
      'Make <profile> the profile every command uses when neither --profile nor TRIDENT_PROFILE names one. "default" goes back to the profile called default.',
    )
    .argument('<profile>', 'a saved profile, or default');

export async function run(ctx: Context, _opts: unknown, profile: string): Promise<void> {
  await ctx.settings.store.useProfile(profile);
  const overridden =
    ctx.env.TRIDENT_PROFILE !== undefined ? ` (TRIDENT_PROFILE=${ctx.env.TRIDENT_PROFILE} still wins where it is set)` : '';
  ctx.log.info(`the default profile is now "${profile}"${overridden}`);
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident config use sandbox', 'trident config profiles     # the current one is marked', 'trident config use default'],
  run,
});
