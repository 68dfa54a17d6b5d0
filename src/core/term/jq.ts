// --jq, as gh's: the JSON that -o json would print, filtered by real jq (jq 1.8 compiled to WebAssembly, the
// npm package jq-wasm; jq-engine.ts says where a program runs). Loaded only when --jq is given: the engine
// is slow to start.
import { usageError } from '../errors.js';
import { jsonText } from '../json/big-integers.js';
import { JqEngineAborted, runInEngine, type JqRun } from './jq-engine.js';

const HINT = "jq's own language, e.g. --jq '.[].api_key' or --jq '.items | length' (manual: https://jqlang.org/manual)";

/**
 * Compiles `expression` without running it: jq is given no input at all, so it only compiles. A bad
 * expression is a usage error (exit 2), found before any request is sent.
 */
export async function checkJq(expression: string): Promise<void> {
  const result = await run(expression, '');
  if (result.exitCode !== 0) throw usageError(`invalid --jq expression: ${firstError(result.stderr)}`, HINT);
}

export interface JqResults {
  /** Each result as compact JSON in jq's own text (a big number keeps its digits). */
  results: string[];
  /** jq's error, when the expression failed on this value (after the results before it). */
  error?: string;
}

export async function runJq(expression: string, value: unknown): Promise<JqResults> {
  const { stdout, stderr, exitCode } = await run(expression, jsonText(value));
  const results = stdout === '' ? [] : stdout.split('\n');
  return exitCode !== 0 && stderr !== '' ? { results, error: firstError(stderr) } : { results };
}

/**
 * Runs `expression` on `value` and writes what to print, as gh's --jq does: a string result raw, any other
 * result as compact JSON, one result a line. A failure of the expression on this value (exit 2) comes after
 * the results before it are written.
 */
export async function applyJq(expression: string, value: unknown, write: (text: string) => Promise<void>): Promise<void> {
  const { results, error } = await runJq(expression, value);
  if (results.length > 0) await write(`${results.map(rawIfString).join('\n')}\n`);
  if (error !== undefined) throw usageError(`--jq failed on the output: ${error}`);
}

/** The engine's run; one it could not finish (out of memory) is a usage error (exit 2) naming --jq. */
async function run(expression: string, input: string): Promise<JqRun> {
  try {
    return await runInEngine(expression, input);
  } catch (error) {
    if (!(error instanceof JqEngineAborted)) throw error;
    throw usageError(
      '--jq could not run this program: the jq engine ran out of memory',
      'a program that builds ever larger or deeper values cannot finish: keep less of the input, e.g. with first(...), limit(n; ...) or select(...)',
    );
  }
}

function rawIfString(line: string): string {
  return line.startsWith('"') ? (JSON.parse(line) as string) : line;
}

/** jq's first error line, without its "jq: error:" prefix and the "(at /dev/stdin:0)" of a runtime error. */
function firstError(stderr: string): string {
  const line = stderr.split('\n').find((text) => text.trim() !== '') ?? 'jq failed';
  return line
    .replace(/^jq: error(?: \(at [^)]*\))?: /, '')
    .replace(/^jq: /, '')
    .replace(/:\s*$/, '');
}
