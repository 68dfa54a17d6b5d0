// Keeps secrets out of --debug logs: credentials in headers, PEM blocks, tokens and passwords in bodies,
// passwords in URLs.

const SECRET_HEADERS = new Set(['authorization', 'kalshi-access-signature', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-token']);
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;
// A private key cut off before its END line (a truncated body) is still a secret.
const UNTERMINATED_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*$/;
const FORM_SECRET = /\b(token|password|private_key|secret)=[^&\s]*/gi;
const JSON_SECRET = /"(token|password|private_key|secret)"\s*:\s*"(?:[^"\\]|\\.)*"/gi;
// A JSON secret whose closing quote never came (a body cut off by the service).
const UNTERMINATED_JSON_SECRET = /"(token|password|private_key|secret)"\s*:\s*"(?:[^"\\]|\\.)*\\?$/i;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):[^\s/?#@]*@/gi;

/** Longest body --debug prints; cut only after redaction, so the cut never splits a secret open. */
export const DEBUG_BODY_CHARS = 4000;

export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value]),
  );
}

export function redactText(text: string): string {
  return redactUrlText(
    text
      .replace(PEM_BLOCK, (_match, label: string) => `[redacted ${label}]`)
      .replace(UNTERMINATED_KEY, '[redacted PRIVATE KEY]')
      .replace(JSON_SECRET, (_match, name: string) => `"${name}":"[redacted]"`)
      .replace(UNTERMINATED_JSON_SECRET, (_match, name: string) => `"${name}":"[redacted]`)
      .replace(FORM_SECRET, (_match, name: string) => `${name}=[redacted]`),
  );
}

/** `https://user:secret@host/` → `https://user:[redacted]@host/`. */
export function redactUrlText(text: string): string {
  return text.replace(URL_PASSWORD, '$1:[redacted]@');
}

/** A body for --debug: redacted whole, then cut to DEBUG_BODY_CHARS. */
export function debugBody(text: string): string {
  const redacted = redactText(text);
  return redacted.length > DEBUG_BODY_CHARS ? `${redacted.slice(0, DEBUG_BODY_CHARS)}…` : redacted;
}
