// Which output format a command writes and whether it colours it: from the flag, the environment and the
// profile, else from whether stdout is a terminal.
import { usageError } from '../../errors.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
export type Format = (typeof FORMATS)[number];

/** `where` names the value's origin in the message: "--output", "TRIDENT_OUTPUT", ... */
export function parseFormat(value: string, where = 'output format'): Format {
  if (!(FORMATS as readonly string[]).includes(value)) {
    throw usageError(`invalid ${where} "${value}": expected one of ${FORMATS.join(', ')}`);
  }
  return value as Format;
}

/** flag > TRIDENT_OUTPUT > profile > table on a TTY, tsv when piped. */
export function chooseFormat(explicit: string | undefined, isTTY: boolean, where?: string): Format {
  return explicit ? parseFormat(explicit, where) : isTTY ? 'table' : 'tsv';
}

/**
 * `--no-color` and NO_COLOR switch colour off; FORCE_COLOR (other than 0) forces it; else only on a TTY
 * that is not TERM=dumb (a terminal that shows escape codes as text).
 */
export function useColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY && env.TERM !== 'dumb';
}
