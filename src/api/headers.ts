// The -H headers of `trident api`: "Name: value", added to the request or replacing what trident would send
// (Accept, Content-Type). The service's authentication and the headers that frame the request are trident's
// own and cannot be replaced: a signature made for one request, a token bound to its User-Agent, or a second
// Content-Length would make the request something other than what the command line says.
import { usageError } from '../core/errors.js';
import { oneLine } from '../core/term/printable.js';

/** An HTTP field name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface OwnHeader {
  what: string;
  hint: string;
}

/**
 * Names (lower case) trident sets itself, and why. The keys service's signature headers are those of
 * src/keys/signing.ts (not imported, so that a request to another service does not load node:crypto; a unit
 * test holds the two lists together).
 */
export const OWN_HEADERS: Record<string, OwnHeader> = {
  ...own(['kalshi-access-key', 'kalshi-access-timestamp', 'kalshi-access-signature', 'authorization', 'x-api-token'], {
    what: "the service's authentication",
    hint: 'the credentials come from the profile: see trident status',
  }),
  ...own(['user-agent'], {
    what: "trident's User-Agent (the time tracker binds its token to it)",
    hint: 'set another with: trident config set time.userAgent NAME',
  }),
  // A header reaches the service itself: a proxy's credentials there would be handed to the wrong party.
  ...own(['proxy-authorization'], {
    what: "a proxy's credentials (from HTTPS_PROXY/HTTP_PROXY)",
    hint: 'put them in the proxy URL: HTTPS_PROXY=http://user:password@proxy:port',
  }),
  ...own(['host', 'content-length', 'transfer-encoding', 'connection'], {
    what: 'how the request is framed',
    hint: 'trident sets it from the URL and the body',
  }),
  // The answer is read and printed as the bytes came: a compressed one would be printed compressed.
  ...own(['accept-encoding', 'te'], {
    what: 'how the answer is encoded',
    hint: 'trident reads answers uncompressed',
  }),
};

function own(names: string[], why: OwnHeader): Record<string, OwnHeader> {
  return Object.fromEntries(names.map((name) => [name, why]));
}

/** "Accept: text/csv" → ["accept", "text/csv"]; the same name twice joins its values, as HTTP reads them. */
export function parseHeaders(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of values) {
    const at = header.indexOf(':');
    const name = header.slice(0, Math.max(at, 0)).trim();
    if (at < 0 || !TOKEN.test(name))
      throw usageError(`invalid -H "${oneLine(header, 200)}": expected "Name: value"`, "e.g. -H 'Accept: application/json'");
    const value = header.slice(at + 1).trim();
    // A line break would end the header and start another the command line does not show.
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value))
      throw usageError(`invalid -H "${name}": its value has a line break or a control character`);
    const own = OWN_HEADERS[name.toLowerCase()];
    if (own) throw usageError(`-H "${name}" is refused: it is ${own.what}, which trident sets itself`, own.hint);
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}
