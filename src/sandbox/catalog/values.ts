// How the public catalog service turns stored values into answer values: strings trimmed (empty → null),
// numbers as floats, flags as booleans, filter tokens normalized.

// Python's str.strip(): its whitespace is not quite JavaScript's (\x1c-\x1f and \x85 are, \ufeff is not).
const PY_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');

export function pythonStrip(value: string): string {
  return value.replace(PY_STRIP, '');
}

export function safeStr(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const token = pythonStrip(typeof value === 'string' ? value : String(value));
  return token || null;
}

const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|inf|infinity|nan)$/i;

/** A number, or text that reads as one (a decimal comma accepted); anything else is null. */
export function asFloat(value: unknown): number | null {
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const token = safeStr(value);
  if (token === null) return null;
  const normalized = token.replaceAll(',', '.');
  if (!FLOAT_TEXT.test(normalized)) return null;
  return parsePythonFloat(normalized);
}

export function asInt(value: unknown): number | null {
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  const token = safeStr(value);
  if (token === null || !/^[+-]?\d+$/.test(token)) return null;
  return Number(token);
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'n', 'off']);

export function asBool(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  const token = pythonStrip(String(value)).toLowerCase();
  if (TRUE_WORDS.has(token)) return true;
  if (FALSE_WORDS.has(token)) return false;
  return null;
}

/** Trimmed, lower-cased, empty ones dropped, de-duplicated in first-seen order. */
export function normalizeTokens(values: readonly string[] | null | undefined): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of values ?? []) {
    const token = safeStr(raw);
    if (token === null) continue;
    const normalized = unicodeLower(token);
    if (seen.has(normalized)) continue;
    seen.add(normalized);
    out.push(normalized);
  }
  return out;
}

/** `GROUP_CONCAT` output split on commas, trimmed, de-duplicated case-insensitively in order. */
export function splitCsv(value: unknown): string[] {
  const token = safeStr(value);
  if (token === null) return [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const piece of token.split(',')) {
    const item = pythonStrip(piece);
    if (!item) continue;
    const lowered = unicodeLower(item);
    if (seen.has(lowered)) continue;
    seen.add(lowered);
    out.push(item);
  }
  return out;
}

/** Python's `str.lower()` (close enough: JavaScript's full Unicode lower-casing). */
export function unicodeLower(value: string): string {
  return value.toLowerCase();
}

/** Python's `float()` of an already validated numeric text (`inf`, `nan` included). */
export function parsePythonFloat(text: string): number {
  const lowered = text.toLowerCase();
  const negative = lowered.startsWith('-');
  const body = lowered.replace(/^[+-]/, '');
  if (body === 'inf' || body === 'infinity') return negative ? -Infinity : Infinity;
  if (body === 'nan') return Number.NaN;
  return Number(text);
}
