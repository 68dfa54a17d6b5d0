// --jq (DESIGN §2.1): the JSON that -o json would print, filtered by real jq (jq 1.8 compiled to WebAssembly,
// the npm package jq-wasm). Loaded only when --jq is given: the engine costs some 50 ms to start.
import { usageError } from './errors.js';

type JqHandle = Awaited<ReturnType<typeof import('jq-wasm').loadJq>>;

let engine: Promise<JqHandle> | undefined;

function loadEngine(): Promise<JqHandle> {
  engine ??= import('jq-wasm').then(({ loadJq }) => loadJq());
  return engine;
}

const HINT = "jq's own language, e.g. --jq '.[].api_key' or --jq '.items | length' (manual: https://jqlang.org/manual)";

/**
 * Compiles `expression` without running it: jq is given no input at all, so it only compiles. A bad
 * expression is a usage error (exit 2), found before any request is sent.
 */
export async function checkJq(expression: string): Promise<void> {
  const jq = await loadEngine();
  const result = jq.raw('', expression, ['-c']);
  if (result.exitCode !== 0) throw usageError(`invalid --jq expression: ${firstError(result.stderr)}`, HINT);
}

/**
 * Runs `expression` on `value` and writes what to print, as gh's --jq does: a string result raw, any other
 * result as compact JSON, one result a line. A failure of the expression on this value (exit 2) comes after
 * the results before it are written.
 */
export async function applyJq(expression: string, value: unknown, write: (text: string) => Promise<void>): Promise<void> {
  const jq = await loadEngine();
  // Compact JSON, one result a line, in jq's own text (a big number keeps its digits); strings are unquoted
  // here rather than with jq's -r, whose output the engine trims of leading and trailing blanks.
  const result = jq.raw(JSON.stringify(value) ?? 'null', expression, ['-c']);
  if (result.stdout !== '') await write(`${result.stdout.split('\n').map(rawIfString).join('\n')}\n`);
  if (result.exitCode !== 0 && result.stderr !== '') throw usageError(`--jq failed on the output: ${firstError(result.stderr)}`);
}

function rawIfString(line: string): string {
  return line.startsWith('"') ? (JSON.parse(line) as string) : line;
}

/** jq's first error line, without its "jq: error:" prefix and the "(at /dev/stdin:0)" of a runtime error. */
function firstError(stderr: string): string {
  const line = stderr.split('\n').find((text) => text.trim() !== '') ?? 'jq failed';
  return line.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/^jq: /, '').replace(/:\s*$/, '');
}
