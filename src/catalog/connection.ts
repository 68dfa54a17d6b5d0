// Where the catalog service is: --url, else TRIDENT_CATALOG_URL, else the profile's catalog.url. No
// authentication, so http:// is as good as https://.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context.js';
import { requireSetting } from '../core/files/missing-setting.js';
import { parseBaseUrl } from '../core/http/url.js';
import { CatalogClient } from './client.js';

export interface ConnectionOptions {
  url?: string;
  /** --all: the pages after the first are asked for while one is read (see pages.ts). */
  all?: boolean;
}

export function addConnectionOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(command: Command<A, O, G>) {
  return command.option('--url <url>', 'base URL of the catalog service (env TRIDENT_CATALOG_URL, setting catalog.url)');
}

export async function connect(ctx: Context, options: ConnectionOptions): Promise<CatalogClient> {
  const setting = ctx.settings.resolve('catalog.url', options.url);
  const value = requireSetting(
    setting,
    'catalog service URL',
    'pass --url, set TRIDENT_CATALOG_URL, run `trident config set catalog.url http://HOST:PORT`, or start local services with `trident sandbox`',
  );
  const base = parseBaseUrl(value, ctx.settings.origin(setting, '--url'));
  return new CatalogClient(await ctx.http({ serviceName: 'catalog service', baseUrl: base }), base);
}
