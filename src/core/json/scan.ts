// One pass over a JSON text before it is parsed, for what JSON.parse takes in silently: nesting deeper than
// what comes after it can walk (JSON.stringify, jq and the table renderer recurse, and overflow their stacks
// long before JSON.parse does), and integer literals beyond 2^53, which JSON.parse rounds.
// Only structure is read: a string is skipped whole, so digits and brackets inside one never count.

export interface JsonScan {
  /** More than the allowed arrays and objects open inside one another (the scan stops there). */
  tooDeep: boolean;
  /** Where each integer literal beyond Number.MAX_SAFE_INTEGER starts and ends, when they are sought. */
  bigIntegers: Array<[start: number, end: number]>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

export function scanJson(text: string, maxDepth: number, findBigIntegers = false): JsonScan {
  const bigIntegers: JsonScan['bigIntegers'] = [];
  const length = text.length;
  let depth = 0;
  for (let at = 0; at < length; at += 1) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      at = closingQuote(text, at);
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return { tooDeep: true, bigIntegers };
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    } else if (findBigIntegers && (isDigit(c) || c === MINUS)) {
      const end = numberEnd(text, at);
      if (isBigInteger(text.slice(at, end))) bigIntegers.push([at, end]);
      at = end - 1;
    }
  }
  return { tooDeep: false, bigIntegers };
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** The index of the quote that closes the string opening at `at` (the text's end if none does). */
function closingQuote(text: string, at: number): number {
  for (let quote = text.indexOf('"', at + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}

/** The end of the number token at `at`: its sign, digits, point and exponent. */
function numberEnd(text: string, at: number): number {
  let end = at + 1;
  for (; end < text.length; end += 1) {
    const c = text.charCodeAt(end);
    if (!(isDigit(c) || c === MINUS || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45)) break;
  }
  return end;
}

/** An integer as JSON writes it (no fraction, no exponent, no leading zero) that a double cannot hold exactly. */
function isBigInteger(token: string): boolean {
  const digits = token.charCodeAt(0) === MINUS ? token.slice(1) : token;
  if (!/^[1-9]\d*$/.test(digits)) return false;
  return digits.length > MAX_SAFE_DIGITS.length || (digits.length === MAX_SAFE_DIGITS.length && digits > MAX_SAFE_DIGITS);
}
