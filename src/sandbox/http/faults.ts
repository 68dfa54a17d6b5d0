// Faults the sandbox services can be told to produce, so that tests can attack trident the way production
// does: error statuses, resets, hangs, truncated and oversized bodies, before or after the request took effect.
import type { Socket } from 'node:net';

export type Fault = (
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Destroy the connection without an answer. */
  | { kind: 'reset' }
  /** Never answer (until the server closes). */
  | { kind: 'hang' }
  /** Send the headers and half of the body, then drop the connection. */
  | { kind: 'truncate' }
  /** Answer with this raw payload (an HTML error page, broken JSON ...). */
  | { kind: 'body'; payload: string; status?: number; contentType?: string }
  /** Answer 200 with a JSON body of about this many bytes. */
  | { kind: 'huge'; bytes: number }
  /** Answer as usual, only this much later (with afterProcessing: the service has acted meanwhile). */
  | { kind: 'delay'; ms: number }
  /** Announce a body of `bytes` bytes, then send one byte every `everyMs` (a dying link, a tarpit). */
  | { kind: 'drip'; bytes: number; everyMs: number }
) & {
  /** Let the service process the request first (the key is minted, the project saved), then misbehave. */
  afterProcessing?: boolean;
};

export interface FaultRule {
  method?: string;
  /** Exact path, or a pattern tested against the path. */
  path?: string | RegExp;
  fault: Fault;
  /** How many matching requests get the fault; default 1. */
  times?: number;
  /** How many matching requests pass untouched first (the second page of a list, say); default 0. */
  skip?: number;
}

export class FaultInjector {
  private rules: Array<FaultRule & { left: number; skipLeft: number }> = [];
  private held = new Set<Socket>();
  private waiters: Array<(fault: Fault) => void> = [];

  /** Adds a rule; the first rule that matches a request is used. */
  add(rule: FaultRule): void {
    this.rules.push({ ...rule, left: rule.times ?? 1, skipLeft: rule.skip ?? 0 });
  }

  /** Resolves when the next fault is applied (for a test that kills the client inside a held request). */
  next(): Promise<Fault> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  take(method: string, path: string): Fault | undefined {
    const index = this.rules.findIndex((rule) => matches(rule, method, path));
    if (index < 0) return undefined;
    const rule = this.rules[index]!;
    if (rule.skipLeft > 0) {
      rule.skipLeft -= 1;
      return undefined;
    }
    rule.left -= 1;
    if (rule.left <= 0) this.rules.splice(index, 1);
    return rule.fault;
  }

  notify(fault: Fault): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter(fault);
  }

  hold(socket: Socket): void {
    this.held.add(socket);
    socket.on('close', () => this.held.delete(socket));
  }

  /** Drops every rule and every held connection. */
  clear(): void {
    this.rules = [];
    for (const socket of this.held) socket.destroy();
    this.held.clear();
  }
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) return false;
  if (rule.path === undefined) return true;
  return typeof rule.path === 'string' ? rule.path === path : rule.path.test(path);
}
