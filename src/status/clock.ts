// The clock of a service against this machine's, from the Date header of its answers. The keys service refuses
// a signature whose timestamp is too far off (a 401 that looks like a wrong key), so a skewed clock here is
// worth a warning before anyone suspects the key. The header is in whole seconds, cut down: the service's
// time was somewhere in that second, taken as its middle, against the middle of the request's round trip.
import type { HeadersSeen } from '../core/http/client.js';

/** Past this many seconds either way, status warns. */
export const SKEW_WARNING_SECONDS = 5;

/** The service's clock minus ours, in whole seconds; undefined without a readable Date header. */
export function skewSeconds(seen: HeadersSeen): number | undefined {
  const header = seen.headers.date;
  const served = Date.parse(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
  if (!Number.isFinite(served)) return undefined;
  const skew = Math.round((served + 500 - (seen.sentAt + seen.receivedAt) / 2) / 1000);
  return skew === 0 ? 0 : skew; // never -0 in JSON
}

/** The warning for a skew past the threshold, with the fix; undefined when the clocks agree well enough. */
export function skewWarning(service: string, skew: number | null): string | undefined {
  if (skew === null || Math.abs(skew) <= SKEW_WARNING_SECONDS) return undefined;
  const how = `${Math.abs(skew)} s ${skew > 0 ? 'ahead of' : 'behind'}`;
  const matters =
    service === 'keys'
      ? 'the keys service refuses a signature whose timestamp is off (exit 4, 401)'
      : 'times this machine sends and shows are off by as much';
  return `the ${service} service's clock is ${how} this machine's: ${matters}; set this machine's clock right (sudo timedatectl set-ntp true, or the system's date and time settings)`;
}
