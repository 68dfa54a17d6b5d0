// Where a JSON text holds integer literals beyond 2^53, which JSON.parse rounds: one pass over the text, for the
// answers whose ids can be that large. Only structure is read: a string is skipped whole, so digits inside one
// never count.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

/** Where each integer literal beyond Number.MAX_SAFE_INTEGER starts and ends, outside strings. */
export function bigIntegerSpans(text: string): Array<[start: number, end: number]> {
  const spans: Array<[number, number]> = [];
  const length = text.length;
  for (let at = 0; at < length; at += 1) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      at = closingQuote(text, at);
    } else if (isDigit(c) || c === MINUS) {
      const end = numberEnd(text, at);
      if (isBigInteger(text.slice(at, end))) spans.push([at, end]);
      at = end - 1;
    }
  }
  return spans;
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
