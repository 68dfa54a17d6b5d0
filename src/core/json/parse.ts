// Service answers as JSON: every answer is parsed here, so that none gets past that nests deeper than what
// prints it can walk, and so that integers beyond 2^53 can be kept exact where a service has ids that large.
import { parseWithBigIntegers } from './big-integers.js';
import { bigIntegerSpans } from './scan.js';

/**
 * The deepest nesting of arrays and objects an answer may have. Real answers of the services are a few levels
 * deep. Printing recurses: JSON.stringify overflows Node's stack some thousands of levels down, and jq (compiled
 * to WebAssembly) overflows its own on plain `.` past about 640 levels and on recursive filters such as
 * `del(..|select(...))` from about 400; a printed list or page adds two levels of its own.
 */
export const MAX_JSON_DEPTH = 256;

export interface JsonOptions {
  /** Integers beyond Number.MAX_SAFE_INTEGER as bigint, not rounded to the nearest double. */
  bigIntegers?: boolean;
}

export type JsonProblem = 'not-json' | 'too-deep';
export type ParsedJson = { ok: true; value: unknown } | { ok: false; problem: JsonProblem };

export function parseJson(text: string, options: JsonOptions = {}): ParsedJson {
  let value: unknown;
  try {
    // V8 parses any depth without recursing: the depth is checked on the value.
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not-json' };
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) return { ok: false, problem: 'too-deep' };
  if (!options.bigIntegers) return { ok: true, value };
  // Parsed once as it came first: only valid JSON is rewritten, so the rewriting never makes JSON of what was none.
  const spans = bigIntegerSpans(text);
  return { ok: true, value: spans.length === 0 ? value : parseWithBigIntegers(text, spans) };
}

/** Whether arrays and objects nest in `value` more than `depth` levels deep (the walk goes no deeper than that). */
function nestsDeeperThan(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth === 0) return true;
  if (Array.isArray(value)) return value.some((item) => nestsDeeperThan(item, depth - 1));
  for (const key in value) if (nestsDeeperThan((value as Record<string, unknown>)[key], depth - 1)) return true;
  return false;
}

/** The value, or undefined when the text is not JSON fit to use (an error body read for its message). */
export function jsonOrUndefined(text: string): unknown {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}
