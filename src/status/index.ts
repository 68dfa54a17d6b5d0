// `trident status [--service keys|time|catalog]`: for each service, what is configured, from where, and whether
// a harmless request works. Exit 0 when every configured service works, else the highest exit code among the
// failures. A service with no URL is shown as not configured, which is no failure while another is set up; but
// when the service asked for (--service), or every service, has none, status exits 4, so that a CI pre-flight
// step fails when the job's secrets were never mapped. A clock skew past 5 s is a warning on stderr and no
// failure: the service answered.
import { ageText } from '../core/term/times.js';
import { Option } from '@commander-js/extra-typings';
import { defineCommand, type GroupCommand, type OptionsOf } from '../command.js';
import type { Context } from '../context.js';
import { ExitCode, type TridentError } from '../core/errors.js';
import { missingSettingError } from '../core/files/missing-setting.js';
import { SERVICES, URL_SETTING, serviceStatus, type Service, type ServiceStatus } from './checks.js';
import { SKEW_WARNING_SECONDS } from './clock.js';

const define = (group: GroupCommand) => {
  return group
    .description(
      'Show, for each service with a URL, the URL and where it came from, the credential and its source (never a secret), and whether a harmless request works: keys lists the keys and finds the one in use with its scopes and age, time reads the projects and names the user who logged in, catalog asks /healthz. Sends no write.\n\n' +
        "Each service's clock is read from the Date header of its answer: past 5 s from this machine's, a warning on stderr says how to set the clock right (the keys service refuses a signature whose timestamp is off). The warning changes no exit code.\n\n" +
        'Exit 0 when every configured service works, else the highest exit code of the failures. Exit 4 when the service asked for (--service), or every service, is not set up: a CI pre-flight step fails when the job never got its settings.',
    )
    .addOption(new Option('--service <name>', 'check one service only').choices([...SERVICES]));
};

export type StatusOptions = OptionsOf<typeof define>;

export async function run(ctx: Context, opts: StatusOptions): Promise<number> {
  const services = opts.service ? [opts.service] : [...SERVICES];
  // One after another: the --debug log of each stays together.
  const statuses: Array<[Service, ServiceStatus]> = [];
  for (const service of services) statuses.push([service, await serviceStatus(ctx, service)]);
  const unset = nothingSetUp(statuses);
  // A skewed clock is told on stderr whatever the format, and changes no exit code: the check itself worked.
  for (const [, status] of statuses) if (status.warning) ctx.log.warn(status.warning);
  if (ctx.format === 'json') await ctx.output.object(Object.fromEntries(statuses));
  // For people, one record a service: its values are long (URLs, paths, key ids) and wrap rather than being cut.
  else if (ctx.format === 'table') for (const row of statuses) await ctx.output.object(forPeople(row));
  else await ctx.output.list(statuses, [], ([service, status]) => ({ service, ...status }));
  if (unset) throw unset;
  return Math.max(ExitCode.ok, ...statuses.map(([, status]) => status.exit_code));
}

/** When none of the services looked at has a URL: each marked failed (exit 4), and the error to end with. */
function nothingSetUp(statuses: Array<[Service, ServiceStatus]>): TridentError | undefined {
  if (statuses.some(([, status]) => status.configured)) return undefined;
  for (const [service, status] of statuses)
    Object.assign(status, { exit_code: ExitCode.auth, error: `not set up: no ${URL_SETTING[service]}` });
  const services = statuses.map(([service]) => service);
  const settings = services.map((service) => URL_SETTING[service]);
  const what = services.length === 1 ? `the ${services[0]} service is not set up` : 'no service is set up';
  const variables = services.map((service) => `TRIDENT_${service.toUpperCase()}_URL`);
  const hint = `set ${orList(variables)}, or run: trident config set ${settings[0]} <url>; trident sandbox runs local services to try trident on`;
  return missingSettingError(settings, ExitCode.auth, `${what}: no ${orList(settings)}`, hint);
}

const orList = (words: string[]) => (words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

function forPeople([service, status]: [Service, ServiceStatus]): Record<string, unknown> {
  if (!status.configured) return { [service]: `not configured (no ${service}.url)` };
  return {
    [service]: status.works ? 'ok' : `failed (exit ${status.exit_code})`,
    url: `${status.url} (from ${status.url_source})`,
    ...(status.credential ? { credential: `${status.credential}: ${status.credential_source}` } : {}),
    ...(status.error ? { error: status.error } : { found: describe(status.found) }),
    ...(status.clock_skew_seconds === null ? {} : { clock: clockOf(status.clock_skew_seconds) }),
  };
}

function describe(found: Record<string, unknown> | null): string {
  if (!found) return '';
  return Object.entries(found)
    .filter(([key]) => key !== 'age_source')
    .map(([key, value]) => {
      if (key === 'age_seconds') return typeof value === 'number' ? `age ${ageText(value)} (${String(found.age_source)})` : 'age unknown';
      if (key === 'user' && value === null) return 'user unknown (a token from TRIDENT_TIME_TOKEN or a file names nobody)';
      return `${key} ${Array.isArray(value) ? value.join(',') : String(value)}`;
    })
    .join('; ');
}

function clockOf(skew: number): string {
  if (skew === 0) return 'in step with this machine';
  const how = `${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'} this machine`;
  return Math.abs(skew) > SKEW_WARNING_SECONDS ? `${how}: set the clock right (see the warning)` : how;
}

export const { register, definition } = defineCommand({
  define,
  examples: ['trident status', 'trident status --service keys -o json', "trident status --jq '.keys.works'"],
  run,
});
