// `trident status [--service keys|time|catalog]`: for each service, what is configured, from where, and whether
// a harmless request works. Exit 0 when every configured service works, else the highest exit code among the
// failures; a service with no URL is shown as not configured, which is no failure.
import { Option, type Command } from 'commander';
import { examples, type Binder } from '../command.js';
import type { Context } from '../context.js';
import { ExitCode } from '../core/errors.js';
import { SERVICES, serviceStatus, type Service, type ServiceStatus } from './checks.js';

export interface StatusOptions {
  service?: Service;
}

export async function run(ctx: Context, opts: StatusOptions): Promise<number> {
  const services = opts.service ? [opts.service] : [...SERVICES];
  // One after another: the --debug log of each stays together.
  const statuses: Array<[Service, ServiceStatus]> = [];
  for (const service of services) statuses.push([service, await serviceStatus(ctx, service)]);
  if (ctx.format === 'json') await ctx.output.object(Object.fromEntries(statuses));
  // For people, one record a service: its values are long (URLs, paths, key ids) and wrap rather than being cut.
  else if (ctx.format === 'table') for (const row of statuses) await ctx.output.object(forPeople(row));
  else await ctx.output.list(statuses, [], ([service, status]) => ({ service, ...status }));
  return Math.max(ExitCode.ok, ...statuses.map(([, status]) => status.exit_code));
}

function forPeople([service, status]: [Service, ServiceStatus]): Record<string, unknown> {
  if (!status.configured) return { [service]: `not configured (no ${service}.url)` };
  return {
    [service]: status.works ? 'ok' : `failed (exit ${status.exit_code})`,
    url: `${status.url} (from ${status.url_source})`,
    ...(status.credential ? { credential: `${status.credential}: ${status.credential_source}` } : {}),
    ...(status.error ? { error: status.error } : { found: describe(status.found) }),
  };
}

function describe(found: Record<string, unknown> | null): string {
  if (!found) return '';
  return Object.entries(found)
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(',') : String(value)}`)
    .join('; ');
}

export function register(command: Command, bind: Binder): void {
  command
    .description(
      'Show, for each service with a URL, the URL and where it came from, the credential and its source (never a secret), and whether a harmless request works: keys lists the keys and finds the one in use, time reads the projects, catalog asks /healthz. Sends no write. Exit 0 when every configured service works, else the highest exit code of the failures.',
    )
    .addOption(new Option('--service <name>', 'check one service only').choices([...SERVICES]))
    .action(bind(run));
  examples(command, ['trident status', 'trident status --service keys -o json', "trident status --jq '.keys.works'"]);
}
