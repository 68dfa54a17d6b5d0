// Where the time tracker is and who we are to it: the base URL (flag > TRIDENT_TIME_URL > profile), the token
// (TRIDENT_TIME_TOKEN > --token-file > the one stored by `time login`), and the one stable User-Agent.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { requireSetting } from '../core/files/missing-setting.js';
import { ExitCode, TridentError, usageError } from '../core/errors.js';
import { assertSecureUrl, parseBaseUrl } from '../core/http/url.js';
import { AUTH_SCHEMES, TimeClient, type AuthScheme } from './client.js';
import { assertIssuedBy, isTokenShaped, loadToken, readTokenFile, storedTokenPlace } from './token-store.js';

export interface UrlFlag {
  url?: string;
}

export interface ConnectionOptions extends UrlFlag {
  tokenFile?: string;
}

export type TokenSource = 'env' | 'file' | 'stored';

export interface ResolvedToken {
  token: string;
  source: TokenSource;
  /** The User-Agent the token was created with, when known. */
  userAgent?: string;
  /** Who logged in (time login keeps the email), when known. */
  email?: string;
}

export const DEFAULT_USER_AGENT = 'trident-cli';

export function addUrlOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('--url <url>', 'base URL of the time tracker, https only (env TRIDENT_TIME_URL, setting time.url)');
}

export function addConnectionOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return addUrlOption(command).option(
    '--token-file <file>',
    'read the token from this file (the token alone, or a file written by time login); TRIDENT_TIME_TOKEN wins over it',
  );
}

/** The base URL; `http://` is refused (exit 2) before anything is sent: the token must not travel in clear text. */
export function timeBaseUrl(ctx: Context, flag?: string): URL {
  const setting = ctx.settings.resolve('time.url', flag);
  const value = requireSetting(
    setting,
    'time tracker URL',
    'pass --url, set TRIDENT_TIME_URL, or: trident config set time.url https://<host>/api/v1',
  );
  const origin = ctx.settings.origin(setting, '--url');
  const url = parseBaseUrl(value, origin);
  assertSecureUrl(url, origin, false);
  return url;
}

export function timeUserAgent(ctx: Context): string {
  const userAgent = ctx.settings.get('time.userAgent')?.trim();
  return userAgent ? userAgent : DEFAULT_USER_AGENT;
}

export function authScheme(ctx: Context): AuthScheme {
  const scheme = ctx.settings.get('time.authScheme');
  return AUTH_SCHEMES.find((known) => known === scheme) ?? 'bearer';
}

/** The profile's token file, or the keyring entry its time.tokenLocation names. */
export const storedTokenPath = storedTokenPlace;

/**
 * TRIDENT_TIME_TOKEN, else `--token-file`, else the profile's stored token; undefined if none. A token that says
 * which tracker issued it is refused (exit 4) for any other `baseUrl`.
 */
export async function resolveToken(ctx: Context, baseUrl: URL, tokenFile?: string): Promise<ResolvedToken | undefined> {
  const fromEnv = ctx.env.TRIDENT_TIME_TOKEN?.trim();
  if (fromEnv && !isTokenShaped(fromEnv)) {
    throw usageError(
      'TRIDENT_TIME_TOKEN does not hold a token: a token is one word of visible characters, at most 4096',
      'set it to the token alone',
    );
  }
  if (fromEnv) return { token: fromEnv, source: 'env' };
  if (tokenFile !== undefined) {
    const { issuer, ...read } = readTokenFile(tokenFile);
    assertIssuedBy(ctx, issuer, baseUrl, tokenFile);
    return { ...read, source: 'file' };
  }
  const stored = await loadToken(ctx, baseUrl);
  if (!stored) return undefined;
  return {
    token: stored.token,
    source: 'stored',
    userAgent: stored.userAgent || undefined,
    ...(stored.email ? { email: stored.email } : {}),
  };
}

export async function requireToken(ctx: Context, baseUrl: URL, tokenFile?: string): Promise<ResolvedToken> {
  const token = await resolveToken(ctx, baseUrl, tokenFile);
  if (!token) {
    throw new TridentError(ExitCode.auth, `not logged in to the time tracker (profile "${ctx.profile}")`, {
      hint: 'trident time login (or set TRIDENT_TIME_TOKEN, or pass --token-file)',
    });
  }
  return token;
}

/**
 * The service destroys a token presented from a User-Agent other than the one that created it. Sending it
 * is refused (exit 2) unless --yes says to go ahead anyway.
 */
export function guardUserAgent(ctx: Context, token: ResolvedToken, userAgent: string): void {
  if (token.userAgent === undefined || token.userAgent === userAgent) return;
  const problem = `the token was created with User-Agent "${token.userAgent}" but this command would send "${userAgent}"; the time service destroys a token used from another User-Agent`;
  if (!ctx.yes) {
    throw usageError(
      problem,
      `set it back: trident config set time.userAgent "${token.userAgent}" — or pass --yes to send it anyway and log in again afterwards`,
    );
  }
  ctx.log.warn(`${problem}; sending it anyway (--yes)`);
}

export interface Connection {
  client: TimeClient;
  token: ResolvedToken;
}

export interface ConnectOptions {
  /** Logout skips the User-Agent guard: destroying the token is what it wants. */
  guardUserAgent?: boolean;
}

/** A client with a token, after every check that can fail without a request. */
export async function connect(ctx: Context, flags: ConnectionOptions, options: ConnectOptions = {}): Promise<Connection> {
  const baseUrl = timeBaseUrl(ctx, flags.url);
  const userAgent = timeUserAgent(ctx);
  const token = await requireToken(ctx, baseUrl, flags.tokenFile);
  if (options.guardUserAgent !== false) guardUserAgent(ctx, token, userAgent);
  return { client: await timeClient(ctx, baseUrl, token), token };
}

/** A client for `baseUrl`; without a token it can only log in. */
export async function timeClient(ctx: Context, baseUrl: URL, token?: { token: string; source?: TokenSource }): Promise<TimeClient> {
  const http = await ctx.http({ serviceName: 'time service', userAgent: timeUserAgent(ctx) });
  return new TimeClient({ http, baseUrl, token: token?.token, tokenSource: token?.source, authScheme: authScheme(ctx) });
}
