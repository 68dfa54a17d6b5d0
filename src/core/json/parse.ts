// Service answers as JSON: every answer is parsed here, so that none gets past that nests deeper than what
// prints it can walk, and so that integers beyond 2^53 can be kept exact where a service has ids that large.
import { parseWithBigIntegers } from './big-integers.js';
import { scanJson } from './scan.js';

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
  const scan = scanJson(text, MAX_JSON_DEPTH, options.bigIntegers);
  if (scan.tooDeep) return { ok: false, problem: 'too-deep' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not-json' };
  }
  // Parsed once as it came first: only valid JSON is rewritten, so the rewriting never makes JSON of what was none.
  return { ok: true, value: scan.bigIntegers.length === 0 ? value : parseWithBigIntegers(text, scan.bigIntegers) };
}

/** The value, or undefined when the text is not JSON fit to use (an error body read for its message). */
export function jsonOrUndefined(text: string): unknown {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}
