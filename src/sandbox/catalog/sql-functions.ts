// SQL functions the catalog queries need beyond SQLite's own: stored times as microseconds (its date functions
// stop at milliseconds), and case folding: its LOWER() and LIKE fold ASCII only, while
// the catalog is Russian and the public service lower-cases search text the Python (Unicode) way.
import type { SqliteDatabase } from './sqlite/types.js';
import { readDbInstant } from './time.js';

export function registerCatalogFunctions(db: SqliteDatabase): void {
  // trident_instant(text): a stored timestamp as UTC microseconds since the epoch, NULL when unreadable.
  db.function('trident_instant', { deterministic: true }, (value: unknown) => {
    const instant = readDbInstant(value);
    return instant === null ? null : instant;
  });
  db.function('trident_lower', { deterministic: true }, (value: unknown) =>
    value === null || value === undefined ? null : String(value).toLowerCase(),
  );
  // trident_like_any(pattern, a, b, ...): LOWER(COALESCE(x, '')) LIKE pattern for any x, in one call per row.
  db.function('trident_like_any', { deterministic: true, varargs: true }, (pattern: unknown, ...values: unknown[]) => {
    const matcher = likeMatcher(String(pattern));
    for (const value of values) {
      if (matcher.test(value === null || value === undefined ? '' : String(value).toLowerCase())) return 1;
    }
    return 0;
  });
}

const matchers = new Map<string, RegExp>();

/** A LIKE pattern (`%` any run, `_` one character, no escape) as an anchored regular expression. */
function likeMatcher(pattern: string): RegExp {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    let source = '';
    for (const char of pattern) {
      source += char === '%' ? '.*' : char === '_' ? '.' : char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
    }
    matcher = new RegExp(`^${source}$`, 'su');
    if (matchers.size > 100) matchers.clear();
    matchers.set(pattern, matcher);
  }
  return matcher;
}
