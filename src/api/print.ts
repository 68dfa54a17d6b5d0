// What `trident api` prints of one answer: with -i the status line and the headers first, as gh api does; then
// the body — as it came to a pipe or a file, its line ended; on a terminal pretty JSON, or the text, with
// control, bidi and zero-width characters escaped (they would drive the terminal or show one text as another);
// with --jq the filter's output. A refused answer (4xx) is printed too, then becomes the command's error.
import { STATUS_CODES } from 'node:http';
import type { Context } from '../context.js';
import { ExitCode, TridentError, exitCodeForStatus } from '../core/errors.js';
import { unusableAnswer } from '../core/http/answer-json.js';
import type { HttpResponse } from '../core/http/client.js';
import { serviceMessage } from '../core/http/service-message.js';
import { jsonText } from '../core/json/big-integers.js';
import { parseJson } from '../core/json/parse.js';
import { escapeControls, escapeJsonControls } from '../core/term/printable.js';

export interface ApiAnswer {
  response: HttpResponse;
  text: string;
  /** The body as JSON; undefined when it is not JSON. */
  value: unknown;
}

/** The body read: JSON when it is, with integers past 2^53 kept exact (the time tracker's ids). */
export function readAnswer(serviceName: string, response: HttpResponse): ApiAnswer {
  const text = response.text();
  const parsed = parseJson(text, { bigIntegers: true });
  // Not JSON is printed as it came; JSON nested too deeply is refused even then, as every command refuses it.
  if (!parsed.ok && parsed.problem === 'too-deep') throw unusableAnswer(serviceName, parsed.problem, response);
  return { response, text, value: parsed.ok ? parsed.value : undefined };
}

export async function printAnswer(ctx: Context, answer: ApiAnswer, include: boolean): Promise<void> {
  if (include) await ctx.output.write(headerBlock(answer.response, ctx.io.stdout.isTTY === true));
  await printBody(ctx, answer.text, answer.value);
}

/** The error a 4xx answer ends the command with, after its body was printed. */
export function refusal(serviceName: string, answer: ApiAnswer): TridentError {
  const { status, requestId } = answer.response;
  const { message } = serviceMessage(answer.value);
  return new TridentError(exitCodeForStatus(status), `${serviceName} answered ${status}${message ? `: ${message}` : ''}`, {
    status,
    requestId,
  });
}

/** "HTTP/1.1 200 OK", then "Content-Type: application/json"... by name, then an empty line. */
export function headerBlock(response: HttpResponse, terminal: boolean): string {
  const lines = Object.entries(response.headers)
    .filter((entry): entry is [string, string | string[]] => entry[1] !== undefined)
    .map(([name, value]) => [canonicalName(name), Array.isArray(value) ? value.join(', ') : value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}: ${terminal ? escapeControls(value) : value}\n`);
  const reason = STATUS_CODES[response.status];
  return `HTTP/1.1 ${response.status}${reason ? ` ${reason}` : ''}\n${lines.join('')}\n`;
}

/** content-type → Content-Type: Node hands the names over in lower case. */
function canonicalName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}

async function printBody(ctx: Context, text: string, value: unknown): Promise<void> {
  if (ctx.output.jsonFilter) {
    if (value === undefined)
      throw new TridentError(ExitCode.usage, '--jq needs a JSON answer, and this one is not JSON', {
        hint: 'leave out --jq to see the answer as it came',
      });
    return ctx.output.jsonFilter(value, (chunk) => ctx.output.write(chunk));
  }
  if (text === '') return;
  // As it came, and ending its line, so that the next prompt or `read` starts on a line of its own.
  if (!ctx.io.stdout.isTTY) return ctx.output.write(text.endsWith('\n') ? text : `${text}\n`);
  await ctx.output.write(
    value !== undefined
      ? escapeJsonControls(`${jsonText(value, 2)}\n`)
      : `${escapeControls(text, { keepNewlines: true })}${text.endsWith('\n') ? '' : '\n'}`,
  );
}
