// Service answers as JSON: every answer is parsed here, so that no answer gets past that nests deeper than
// what prints it can walk.
import { scanJson } from './scan.js';

/**
 * The deepest nesting of arrays and objects an answer may have. Real answers of the services are a few levels
 * deep. Printing recurses: JSON.stringify overflows Node's stack some thousands of levels down, and jq (compiled
 * to WebAssembly) overflows its own on plain `.` past about 640 levels and on recursive filters such as
 * `del(..|select(...))` from about 400; a printed list or page adds two levels of its own.
 */
export const MAX_JSON_DEPTH = 256;

export type JsonProblem = 'not-json' | 'too-deep';
export type ParsedJson = { ok: true; value: unknown } | { ok: false; problem: JsonProblem };

export function parseJson(text: string): ParsedJson {
  if (scanJson(text, MAX_JSON_DEPTH).tooDeep) return { ok: false, problem: 'too-deep' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, problem: 'not-json' };
  }
}

/** The value, or undefined when the text is not JSON fit to use (an error body read for its message). */
export function jsonOrUndefined(text: string): unknown {
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}
