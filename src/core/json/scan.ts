// One pass over a JSON text before it is parsed, for what JSON.parse takes in silently: nesting deeper than
// what comes after it can walk (JSON.stringify, jq and the table renderer recurse, and overflow their stacks
// long before JSON.parse does). Only structure is read: a string is skipped whole, so brackets inside one
// never count.

export interface JsonScan {
  /** More than the allowed arrays and objects open inside one another (the scan stops there). */
  tooDeep: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export function scanJson(text: string, maxDepth: number): JsonScan {
  const length = text.length;
  let depth = 0;
  for (let at = 0; at < length; at += 1) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      at = closingQuote(text, at);
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return { tooDeep: true };
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return { tooDeep: false };
}

/** The index of the quote that closes the string opening at `at` (the text's end if none does). */
function closingQuote(text: string, at: number): number {
  for (let quote = text.indexOf('"', at + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}
