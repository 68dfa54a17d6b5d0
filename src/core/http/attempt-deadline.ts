// One deadline per attempt, so that nothing a server or proxy does can hang trident: connect, proxy CONNECT,
// TLS, headers and the whole body together must finish within --timeout. undici's own timeouts do not cover all
// of it (its bodyTimeout is per chunk, a body dripping one byte a second never trips it; a proxy that never
// answers the CONNECT is not bounded at all in 7.x, and an AbortSignal does not reach a request still waiting
// for its tunnel), so the attempt races this timer, and the caller tears down whatever is still going when it
// fires.

/** Where the attempt was when time ran out; messages name it. */
export type Stage = 'connecting' | 'waiting for the answer' | 'reading the answer';

export class DeadlineExceeded extends Error {
  readonly code = 'TRIDENT_DEADLINE';
  constructor(
    readonly stage: Stage,
    readonly ms: number,
  ) {
    super(`no answer within ${ms} ms (${stage})`);
  }
}

export interface AttemptDeadline {
  /** Aborts undici's request where it can (a response being read, a request on a socket). */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` with the DeadlineExceeded when the time is up: how a node:http request is ended.
   */
  onExpired(listener: (error: DeadlineExceeded) => void): void;
  /** `work`, or a DeadlineExceeded when the time is up first (the stage as `stageNow()` tells it then). */
  race<T>(work: Promise<T>): Promise<T>;
  /** Ends the attempt now with `error` (a connection that cannot be made): race() rejects with it. */
  fail(error: Error): void;
  clear(): void;
}

export function startDeadline(ms: number, stageNow: () => Stage): AttemptDeadline {
  const controller = new AbortController();
  const listeners: Array<(error: DeadlineExceeded) => void> = [];
  let timer: NodeJS.Timeout | undefined;
  let fail: (error: Error) => void = () => undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    fail = reject;
    timer = setTimeout(() => {
      const error = new DeadlineExceeded(stageNow(), ms);
      controller.abort(error);
      for (const listener of listeners) listener(error);
      reject(error);
    }, ms);
  });
  expired.catch(() => undefined);
  return {
    signal: controller.signal,
    onExpired: (listener) => {
      if (controller.signal.aborted) listener(controller.signal.reason as DeadlineExceeded);
      else listeners.push(listener);
    },
    race: (work) => Promise.race([work, expired]),
    fail: (error) => fail(error),
    clear: () => clearTimeout(timer),
  };
}
