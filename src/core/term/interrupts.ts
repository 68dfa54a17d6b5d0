// Ctrl-C (SIGINT), SIGTERM (CI cancelling a job, `timeout`) and SIGHUP (a closed terminal or ssh session) stop
// trident at once, except inside work that must not be cut in half: between asking the service for a new key
// and storing its private half, an interrupt would leave a key nobody holds. There the interrupt waits for the
// work; a second one forces. One Interrupts belongs to one invocation (its Context): the process's signal
// handler asks it what to do, so two commands run in one test process never see each other's state.
export type InterruptDecision = { stop: true } | { stop: false; note?: string };

export class Interrupts {
  private inside: string | undefined;
  private describe: (() => string | undefined) | undefined;
  private deferred = false;
  private ownHandler = false;

  /**
   * For a command that stops on its own terms (the sandbox): SIGINT, SIGTERM and SIGHUP are left to it until
   * it calls the function returned. (Counting the listeners would not tell: libraries may add their own.)
   */
  handleHere(): () => void {
    this.ownHandler = true;
    // Once the command has heard its signal, another one is trident's again (and stops at once).
    return () => {
      this.ownHandler = false;
    };
  }

  /** Runs `work` with interrupts held back; `what` says what is being finished ("making the key"). */
  async finishBefore<T>(what: string, work: () => Promise<T>): Promise<T> {
    this.inside = what;
    try {
      return await work();
    } finally {
      this.inside = undefined;
    }
  }

  /** What to do with a signal: stop now, or say that the current work is finished first. The second signal during the same work stops at once. */
  decide(): InterruptDecision {
    if (this.ownHandler) return { stop: false };
    if (this.inside === undefined || this.deferred) return { stop: true };
    this.deferred = true;
    return {
      stop: false,
      note: `interrupted: finishing ${this.inside} first (interrupt again to stop at once; the key may then be left on the service)`,
    };
  }

  /** True once an interrupt was held back: the command should stop as soon as its protected work is done. */
  heldBack(): boolean {
    return this.deferred;
  }

  /** What the user needs to know if trident is stopped now (a rotation paused, and how to go on); undefined clears it. */
  setHint(describe: (() => string | undefined) | undefined): void {
    this.describe = describe;
  }

  hint(): string | undefined {
    return this.describe?.();
  }
}
