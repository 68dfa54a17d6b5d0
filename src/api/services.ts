// Each service as `trident api` reaches it: the base URL and http:// rules of its group, and its own
// authentication — keys signed like the keys client, time with the token and the stable User-Agent, the
// catalog with none — on the one HTTP core (timeouts, retries of safe requests only, --debug redaction).
import type { Context } from '../context.js';
import type { HttpClient } from '../core/http/client.js';
import { parseBaseUrl } from '../core/http/url.js';
import { requireSetting } from '../core/files/missing-setting.js';
import type { BodyKind } from './request.js';

export const SERVICES = ['keys', 'time', 'catalog'] as const;
export type ApiService = (typeof SERVICES)[number];

export interface ServiceEndpoint {
  name: string;
  baseUrl: URL;
  http: HttpClient;
  bodyKind: BodyKind;
  /** The headers that authenticate one attempt of `method` to `url` (keys sign each attempt afresh). */
  auth(method: string, url: URL): Record<string, string>;
}

export async function openService(ctx: Context, service: ApiService): Promise<ServiceEndpoint> {
  return OPENERS[service](ctx);
}

const OPENERS: Record<ApiService, (ctx: Context) => Promise<ServiceEndpoint>> = {
  async keys(ctx) {
    const [{ resolveConnection }, { signedHeaders }] = await Promise.all([import('../keys/connection.js'), import('../keys/signing.js')]);
    const { baseUrl, signer } = await resolveConnection(ctx, {});
    const http = await ctx.http({ serviceName: 'keys service', baseUrl });
    return {
      name: 'keys service',
      baseUrl,
      http,
      bodyKind: 'json',
      auth: (method, url) => signedHeaders(signer, method, url, ctx.now().getTime()),
    };
  },
  async time(ctx) {
    const [{ guardUserAgent, requireToken, timeBaseUrl, timeUserAgent, authScheme }, { tokenHeader }] = await Promise.all([
      import('../time/connection.js'),
      import('../time/client.js'),
    ]);
    const baseUrl = timeBaseUrl(ctx);
    const token = await requireToken(ctx, baseUrl);
    guardUserAgent(ctx, token, timeUserAgent(ctx));
    const http = await ctx.http({ serviceName: 'time service', userAgent: timeUserAgent(ctx), baseUrl });
    const header = tokenHeader(token.token, authScheme(ctx));
    return { name: 'time service', baseUrl, http, bodyKind: 'form', auth: () => header };
  },
  async catalog(ctx) {
    const setting = ctx.settings.resolve('catalog.url');
    const value = requireSetting(
      setting,
      'catalog service URL',
      'set TRIDENT_CATALOG_URL, or run: trident config set catalog.url http://HOST:PORT',
    );
    const baseUrl = parseBaseUrl(value, ctx.settings.origin(setting, '--url'));
    const http = await ctx.http({ serviceName: 'catalog service', baseUrl });
    return { name: 'catalog service', baseUrl, http, bodyKind: 'json', auth: () => ({}) };
  },
};
