// --jq (DESIGN §2.1): the JSON that -o json would print, filtered by real jq (jq 1.8 compiled to WebAssembly,
// the npm package jq-wasm). Loaded only when --jq is given: the engine costs some 50 ms to start.
import { usageError } from '../errors.js';
import { jsonText } from '../json/big-integers.js';
import { baselineWasmCompilerOnly } from '../wasm-tier.js';

type JqHandle = Awaited<ReturnType<typeof import('jq-wasm').loadJq>>;

let engine: Promise<JqHandle> | undefined;

function loadEngine(): Promise<JqHandle> {
  baselineWasmCompilerOnly();
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

export interface JqResults {
  /** Each result as compact JSON in jq's own text (a big number keeps its digits). */
  results: string[];
  /** jq's error, when the expression failed on this value (after the results before it). */
  error?: string;
}

export async function runJq(expression: string, value: unknown): Promise<JqResults> {
  const jq = await loadEngine();
  // -c rather than -r: the engine trims its output of leading and trailing blanks, which -r would expose.
  const { stdout, stderr, exitCode } = jq.raw(jsonText(value), expression, ['-c']);
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

function rawIfString(line: string): string {
  return line.startsWith('"') ? (JSON.parse(line) as string) : line;
}

/** jq's first error line, without its "jq: error:" prefix and the "(at /dev/stdin:0)" of a runtime error. */
function firstError(stderr: string): string {
  const line = stderr.split('\n').find((text) => text.trim() !== '') ?? 'jq failed';
  return line.replace(/^jq: error(?: \(at [^)]*\))?: /, '').replace(/^jq: /, '').replace(/:\s*$/, '');
}
