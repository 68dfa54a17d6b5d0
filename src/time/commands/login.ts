import { resolve } from 'node:path';
import { defineCommand, type GroupCommand, type OptionsOf } from '../../command.js';
import type { Context } from '../../context.js';
import { usageError } from '../../core/errors.js';
import { addUrlOption, timeBaseUrl, timeClient, timeUserAgent } from '../connection.js';
import { INPUT_CAPS, readStreamCapped } from '../../core/files/capped-read.js';
import { keepIssuedToken } from '../issued-token.js';
import { isKeyringReference } from '../../core/credentials/reference.js';
import { preflightTokenPlace } from '../token-store.js';
import { tokenIssuer } from '../../wire/time/token-file.js';

const define = (group: GroupCommand) =>
  addUrlOption(
    group
      .command('login')
      .summary('log in and store a token for this profile')
      .description(
        'Log in with email and password (POST /auth) and store the token for the current profile in ' +
          '<config dir>/tokens/<profile>.json, mode 0600. The new token is checked first (its characters, then one GET /projects with it): ' +
          'a stored token is only replaced by one that works, and a token that cannot be stored is revoked again. No OS keyring is available here: that file is the store. ' +
          'The password is asked for on a terminal (hidden) or read from stdin with --password-stdin; never from a flag. ' +
          'The token only works with the User-Agent it was created with (time.userAgent). A --url given here is kept in the profile (as time.url), and so is --ca-file if the profile has no caFile yet.',
      )
      .option('--email <address>', 'account email (asked for on a terminal if missing)')
      .option('--account-id <id>', 'account to log in to, when the user has several')
      .option('--password-stdin', 'read the password from stdin'),
  );

export type LoginOptions = OptionsOf<typeof define>;

/** `POST /auth` with email and password; the token goes to the profile's 0600 token file, never to stdout. */
export async function run(ctx: Context, opts: LoginOptions): Promise<void> {
  const baseUrl = timeBaseUrl(ctx, opts.url);
  const path = preflightTokenPlace(ctx);
  const email = (opts.email ?? (await askEmail(ctx))).trim();
  if (email === '') throw usageError('the email must not be empty');
  const password = opts.passwordStdin
    ? (await readStreamCapped(ctx.io.stdin, INPUT_CAPS.token, 'the password on stdin')).replace(/\r?\n$/, '')
    : await askPassword(ctx);
  if (password === '') throw usageError('the password must not be empty');

  const userAgent = timeUserAgent(ctx);
  const client = await timeClient(ctx, baseUrl);
  const { token, accountId } = await client.login({ email, password, accountId: opts.accountId });
  await keepIssuedToken(ctx, baseUrl, path, {
    token,
    userAgent,
    accountId: accountId ?? opts.accountId ?? null,
    email,
    createdAt: ctx.now().toISOString(),
    issuer: tokenIssuer(baseUrl),
  });

  ctx.log.info(
    `logged in as ${email}; token stored in ${path}${isKeyringReference(path) ? '' : ' (mode 0600)'}, bound to User-Agent "${userAgent}"`,
  );
  await rememberService(ctx, opts);
  if (ctx.env.TRIDENT_TIME_TOKEN) ctx.log.warn('TRIDENT_TIME_TOKEN is set and is used instead of the stored token');
  await ctx.output.object({
    profile: ctx.profile,
    email,
    account_id: accountId ?? opts.accountId ?? null,
    token_file: path,
    user_agent: userAgent,
  });
}

/**
 * A token is only of use with its service: `--url` (and a `--ca-file` for it, if the profile has none yet) go
 * into the profile, so that the next command of the profile needs nothing more.
 */
async function rememberService(ctx: Context, opts: LoginOptions): Promise<void> {
  const url = ctx.settings.resolve('time.url', opts.url);
  const ca = ctx.settings.resolve('caFile');
  const remembered: Partial<Record<'time.url' | 'caFile', string>> = {};
  if (url.source === 'flag' && ctx.settings.store.get(ctx.profile, 'time.url') !== url.value) remembered['time.url'] = url.value!;
  if (ca.source === 'flag' && ctx.settings.store.get(ctx.profile, 'caFile') === undefined) remembered.caFile = resolve(ca.value!);
  if (Object.keys(remembered).length === 0) return;
  await ctx.settings.store.update(ctx.profile, remembered);
  ctx.log.info(
    `profile "${ctx.profile}" now has ${Object.entries(remembered)
      .map(([key, value]) => `${key} ${value}`)
      .join(' and ')}`,
  );
}

async function askEmail(ctx: Context): Promise<string> {
  if (!ctx.prompter.interactive) throw usageError('no email given', 'pass --email <address> (there is no terminal to ask on)');
  return ctx.prompter.ask('Email: ');
}

async function askPassword(ctx: Context): Promise<string> {
  if (!ctx.prompter.interactive) {
    throw usageError(
      'no password given',
      'pipe it in with --password-stdin, e.g. printf %s "$PASSWORD" | trident time login --email you@example.com --password-stdin',
    );
  }
  return ctx.prompter.ask('Password: ', { hidden: true });
}

export const { register, definition } = defineCommand({
  define,
  examples: [
    'trident time login --email you@example.com',
    'printf %s "$TIME_PASSWORD" | trident time login --email you@example.com --password-stdin',
    'trident --profile work time login --url https://time.example.com/api/v1',
  ],
  run,
});
