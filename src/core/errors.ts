// Error kinds and trident's exit codes (the table in README.md). Anything thrown that is not a TridentError is
// a bug (exit 1).
import { oneLine } from './term/printable.js';

export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  cancelled: 3,
  auth: 4,
  notFound: 5,
  rejected: 6,
  rateLimited: 7,
  unavailable: 8,
  /** A policy check found what it was told to fail on (keys audit --fail-on). */
  policyFailed: 9,
  /** A rotation rolled back because its --deploy or --verify command failed: the old key is in use, nothing lost. */
  rolledBack: 10,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorDetails {
  hint?: string;
  /** HTTP status of the answer that caused the error, if any. */
  status?: number;
  /** The service's own error code (e.g. INCORRECT_API_KEY_SIGNATURE). */
  code?: string;
  requestId?: string;
  cause?: unknown;
}

export class TridentError extends Error {
  readonly hint?: string;
  readonly status?: number;
  readonly code?: string;
  readonly requestId?: string;

  constructor(
    readonly exitCode: ExitCode,
    message: string,
    details: ErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TridentError';
    this.hint = details.hint;
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
  }
}

export const usageError = (message: string, hint?: string) => new TridentError(ExitCode.usage, message, { hint });
export const cancelledError = (message: string, hint?: string) => new TridentError(ExitCode.cancelled, message, { hint });
export const authError = (message: string, details?: ErrorDetails) => new TridentError(ExitCode.auth, message, details);
export const notFoundError = (message: string, details?: ErrorDetails) => new TridentError(ExitCode.notFound, message, details);

/** Maps an HTTP error status to its exit code. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 429) return ExitCode.rateLimited;
  if (status >= 500) return ExitCode.unavailable;
  return ExitCode.rejected;
}

/** How an error reads on stderr: `trident: <what happened>`, then at most one `hint:` line, each one line. */
export function errorLines(message: string, hint?: string): string {
  return `trident: ${oneLine(message)}\n${hint ? `hint: ${oneLine(hint)}\n` : ''}`;
}

/**
 * The code of an error after which nobody knows whether the service acted: a write that was sent and whose
 * answer was lost, timed out or was a 5xx. Such a write is never repeated; the caller settles or explains it.
 */
export const UNKNOWN_OUTCOME = 'UNKNOWN_OUTCOME';

export const outcomeUnknown = (error: unknown): error is TridentError => error instanceof TridentError && error.code === UNKNOWN_OUTCOME;

/**
 * The exit code of a batch (many keys deleted, many customers renamed): 0 if every item went through, else the
 * worst of the failures, the highest code (a service failure, 8, outranks a missing item, 5).
 */
export function batchExitCode(codes: readonly number[]): number {
  return codes.reduce((worst, code) => Math.max(worst, code), ExitCode.ok);
}
