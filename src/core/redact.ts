// Keeps secrets out of --debug logs: credentials in headers, PEM blocks, tokens and passwords in bodies.

const SECRET_HEADERS = new Set(['authorization', 'kalshi-access-signature', 'cookie', 'set-cookie', 'proxy-authorization', 'x-api-token']);
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;
// A private key cut off before its END line (a truncated body) is still a secret.
const UNTERMINATED_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*$/;
const FORM_SECRET = /\b(token|password|private_key|secret)=[^&\s]*/gi;
const JSON_SECRET = /"(token|password|private_key|secret)"\s*:\s*"(?:[^"\\]|\\.)*"/gi;

export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value]),
  );
}

export function redactText(text: string): string {
  return text
    .replace(PEM_BLOCK, (_match, label: string) => `[redacted ${label}]`)
    .replace(UNTERMINATED_KEY, '[redacted PRIVATE KEY]')
    .replace(JSON_SECRET, (_match, name: string) => `"${name}":"[redacted]"`)
    .replace(FORM_SECRET, (_match, name: string) => `${name}=[redacted]`);
}
