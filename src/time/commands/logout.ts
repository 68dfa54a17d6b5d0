import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { addConnectionOptions, resolveToken, storedTokenPath, timeBaseUrl, timeClient } from '../connection.js';
import { removeToken } from '../token-store.js';

const define = (group: GroupCommand) =>
  addConnectionOptions(
    group
      .command('logout')
      .summary('revoke the token and remove it from this profile')
      .description(
        'Revoke the token (GET /auth/revoke) and delete the stored token file of the current profile, even if the service had already forgotten the token.',
      ),
  );

/**
 * `GET /auth/revoke`, then the stored token is removed, also when the service says it no longer knows it.
 * No User-Agent guard here: a token sent from another User-Agent is destroyed, which is what logout wants.
 */
export async function run(ctx: Context, opts: OptionsOf<typeof define>): Promise<void> {
  const baseUrl = timeBaseUrl(ctx, opts.url);
  const token = await resolveToken(ctx, baseUrl, opts.tokenFile);
  if (!token) {
    ctx.log.info(`not logged in to the time tracker (profile "${ctx.profile}"): nothing to do`);
    return;
  }
  const client = await timeClient(ctx, baseUrl, token);
  const revoked = await client.revoke();
  const path = storedTokenPath(ctx);
  const removed = token.source === 'stored' ? await removeToken(ctx) : false;

  ctx.log.info(revoked ? 'token revoked' : 'the service no longer knew the token');
  if (removed) ctx.log.info(`removed ${path}`);
  else if (token.source !== 'stored')
    ctx.log.info(
      `the token came from ${token.source === 'env' ? 'TRIDENT_TIME_TOKEN' : '--token-file'}; the stored token, if any, is untouched`,
    );
  await ctx.output.object({ profile: ctx.profile, revoked, token_source: token.source, token_file_removed: removed });
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident time logout', 'trident --profile work time logout'],
  run,
});
