// Ctrl-C (SIGINT), SIGTERM (CI cancelling a job, `timeout`) and SIGHUP (a closed terminal or ssh session) stop trident at once, except inside work
// that must not be cut in half: between asking the service for a new key and storing its private half, an
// interrupt would leave a key nobody holds. There the interrupt waits for the work; a second one forces.
let inside: string | undefined;
let hint: (() => string | undefined) | undefined;
let deferred = false;
let ownHandler = false;

/**
 * For a command that stops on its own terms (the sandbox): SIGINT, SIGTERM and SIGHUP are left to it until it
 * calls the function returned.
 * (Counting the listeners would not tell: libraries may add their own.)
 */
export function handleInterruptsHere(): () => void {
  ownHandler = true;
  // Once the command has heard its signal, another one is trident's again (and stops at once).
  return () => {
    ownHandler = false;
  };
}

/** Runs `work` with interrupts held back; `what` says what is being finished ("making the key"). */
export async function finishBeforeInterrupt<T>(what: string, work: () => Promise<T>): Promise<T> {
  inside = what;
  try {
    return await work();
  } finally {
    inside = undefined;
  }
}

/**
 * What to do with a signal: stop now, or say that the current work is finished first. The second signal
 * during the same work stops at once.
 */
export function onInterrupt(): { stop: true } | { stop: false; note?: string } {
  if (ownHandler) return { stop: false };
  if (inside === undefined || deferred) return { stop: true };
  deferred = true;
  return {
    stop: false,
    note: `interrupted: finishing ${inside} first (interrupt again to stop at once; the key may then be left on the service)`,
  };
}

/** True once an interrupt was held back: the command should stop as soon as its protected work is done. */
export function interruptHeldBack(): boolean {
  return deferred;
}

/** What the user needs to know if trident is stopped now (a rotation paused, and how to go on); undefined clears it. */
export function setInterruptHint(describe: (() => string | undefined) | undefined): void {
  hint = describe;
}

export function interruptHint(): string | undefined {
  return hint?.();
}
