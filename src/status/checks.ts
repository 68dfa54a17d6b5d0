// What `trident status` finds out about each service: where its URL and credential come from (never a
// secret), and whether one harmless GET works. Each check stops at its own failure; none sends a write.
import { connect as connectCatalog } from '../catalog/connection.js';
import type { Context } from '../context.js';
import { ExitCode, TridentError } from '../core/errors.js';
import type { ResolvedSetting, SettingKey, SettingSource } from '../core/files/settings.js';
import { openKeysClient, resolveConnection } from '../keys/connection.js';
import { keyAges } from '../keys/key-ages.js';
import { skewSeconds, skewWarning } from './clock.js';
import {
  guardUserAgent,
  resolveToken,
  storedTokenPath,
  timeBaseUrl,
  timeClient,
  timeUserAgent,
  type ResolvedToken,
} from '../time/connection.js';

export const SERVICES = ['keys', 'time', 'catalog'] as const;
export type Service = (typeof SERVICES)[number];

export interface ServiceStatus {
  configured: boolean;
  /** null when not configured. */
  works: boolean | null;
  url: string | null;
  url_source: SettingSource | null;
  /** Who we are to the service, without any secret: a key id, "token"; null for the catalog (no authentication). */
  credential: string | null;
  /** Where the credential comes from: a variable, a file, the profile. */
  credential_source: string | null;
  /** What the harmless request found: the key in use with its name and scopes, the number of projects, the health. */
  found: Record<string, unknown> | null;
  error: string | null;
  exit_code: number;
  /** The service's clock minus this machine's, in seconds, from the Date header of its last answer; null without one. */
  clock_skew_seconds: number | null;
  /** A clock skew past 5 s, and how to fix it; null otherwise. A warning only: it changes no exit code. */
  warning: string | null;
}

export const URL_SETTING: Record<Service, SettingKey> = { keys: 'keys.url', time: 'time.url', catalog: 'catalog.url' };

export async function serviceStatus(ctx: Context, service: Service): Promise<ServiceStatus> {
  const url = ctx.settings.resolve(URL_SETTING[service]);
  if (!url.value) return { ...blank(), configured: false };
  const status: ServiceStatus = { ...blank(), configured: true, url: url.value, url_source: url.source ?? null };
  // Every answer, an error status included (a skewed clock's 401 above all), tells the service's time.
  const watched: Context = {
    ...ctx,
    http: (options) =>
      ctx.http({
        ...options,
        onHeaders: (seen) => {
          status.clock_skew_seconds = skewSeconds(seen) ?? status.clock_skew_seconds;
        },
      }),
  };
  try {
    await CHECKS[service](watched, status, url);
    status.works = true;
  } catch (error) {
    if (!(error instanceof TridentError)) throw error;
    status.works = false;
    status.error = error.message;
    status.exit_code = error.exitCode;
  }
  status.warning = skewWarning(service, status.clock_skew_seconds) ?? null;
  return status;
}

function blank(): ServiceStatus {
  return {
    configured: false,
    works: null,
    url: null,
    url_source: null,
    credential: null,
    credential_source: null,
    found: null,
    error: null,
    exit_code: ExitCode.ok,
    clock_skew_seconds: null,
    warning: null,
  };
}

type Check = (ctx: Context, status: ServiceStatus, url: ResolvedSetting) => Promise<void>;

const CHECKS: Record<Service, Check> = {
  async keys(ctx, status) {
    const keyId = ctx.settings.resolve('keys.keyId');
    if (keyId.value) status.credential = `key ${keyId.value}`;
    const connection = await resolveConnection(ctx, {});
    status.url = connection.baseUrl.href;
    status.credential_source = `key id from ${sourceOf(ctx, keyId)}, private key from ${connection.signer.source}`;
    const keys = await (await openKeysClient(ctx, connection)).list();
    const inUse = keys.find((key) => key.api_key === connection.signer.keyId);
    const age = inUse ? keyAges(ctx, [inUse]).get(inUse.api_key) : undefined;
    status.found = inUse
      ? {
          api_key: inUse.api_key,
          name: inUse.name,
          scopes: inUse.scopes,
          age_seconds: age ? Math.floor(age.seconds) : null,
          age_source: age?.source ?? null,
          keys: keys.length,
        }
      : {
          api_key: connection.signer.keyId,
          name: null,
          scopes: null,
          keys: keys.length,
          note: 'the key signs requests but is not in the list',
        };
  },
  async time(ctx, status) {
    const baseUrl = timeBaseUrl(ctx);
    const token = await resolveToken(ctx, baseUrl);
    if (!token) throw new TridentError(ExitCode.auth, `not logged in (profile "${ctx.profile}")`);
    status.credential = 'token';
    status.credential_source = tokenSource(ctx, token);
    guardUserAgent(ctx, token, timeUserAgent(ctx));
    const projects = await (await timeClient(ctx, baseUrl, token)).listProjects();
    status.found = { user: token.email ?? null, projects: projects.length, user_agent: timeUserAgent(ctx) };
  },
  async catalog(ctx, status) {
    status.found = await (await connectCatalog(ctx, {})).health();
  },
};

function tokenSource(ctx: Context, token: ResolvedToken): string {
  if (token.source === 'env') return 'TRIDENT_TIME_TOKEN';
  return `stored by time login in ${storedTokenPath(ctx)}`;
}

function sourceOf(ctx: Context, setting: ResolvedSetting): string {
  return setting.source === 'env' || setting.source === 'profile' ? ctx.settings.origin(setting, '') : 'nowhere';
}
