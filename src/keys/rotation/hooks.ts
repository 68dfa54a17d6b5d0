// The application's side of a rotation: the --deploy and --verify commands, run through /bin/sh in a
// process group of their own. The PEM of the key being deployed goes to stdin only: argv and environment are
// visible to other users (ps, /proc), so they get ids and paths and never a secret. Their output goes to
// trident's stderr (stdout is the report); the exit code is recorded, the output never.
import { spawn } from 'node:child_process';
import type { OutStream } from '../../context.js';

export type HookStep = 'deploy' | 'verify' | 'rollback';

export interface HookRun {
  command: string;
  step: HookStep;
  /** The key being deployed (or verified). */
  keyId: string;
  keyFile: string | null;
  /** Written to stdin, then stdin is closed; none for verify. */
  pem?: string;
  oldKeyId: string;
  newKeyId: string;
  timeoutMs: number;
  cwd?: string;
}

export interface HookOutcome {
  /** null when the hook was killed (time-out, or a signal). */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  ms: number;
}

export const DEFAULT_HOOK_TIMEOUT_S = 300;
/** After SIGTERM to the group on time-out, SIGKILL follows this much later. */
const KILL_GRACE_MS = 2_000;
/** A grandchild can keep the output pipes open after the hook exited; they are cut this much later. */
const PIPE_DRAIN_MS = 1_000;

/** trident's own secrets (and its crash test hook), never handed to a hook; the user's other variables pass. */
const WITHHELD = /^TRIDENT_(PRIVATE_KEY|TEST_CRASH_AFTER)$|^TRIDENT_.*(TOKEN|PASSWORD|SECRET)/;

export function hookEnvironment(env: NodeJS.ProcessEnv, run: HookRun): NodeJS.ProcessEnv {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !WITHHELD.test(name)));
  return {
    ...kept,
    TRIDENT_DEPLOY_STEP: run.step,
    TRIDENT_DEPLOY_KEY_ID: run.keyId,
    TRIDENT_DEPLOY_KEY_FILE: run.keyFile ?? '',
    TRIDENT_OLD_KEY_ID: run.oldKeyId,
    TRIDENT_NEW_KEY_ID: run.newKeyId,
  };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

export function runHook(run: HookRun, env: NodeJS.ProcessEnv, output: OutStream): Promise<HookOutcome> {
  const start = performance.now();
  const child = spawn('/bin/sh', ['-c', run.command], { cwd: run.cwd, detached: true, env: hookEnvironment(env, run), stdio: ['pipe', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => output.write(chunk));
  // A hook that does not read its stdin closes it early: that is its business, not an error.
  child.stdin.on('error', () => undefined);
  child.stdin.end(run.pem ?? '');
  // trident dying (an interrupt, an exception) must not leave the hook running on its own.
  const orphanGuard = () => killGroup(child.pid!, 'SIGKILL');
  process.once('exit', orphanGuard);
  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid!, 'SIGTERM');
    timers.push(setTimeout(() => killGroup(child.pid!, 'SIGKILL'), KILL_GRACE_MS));
  }, run.timeoutMs);
  return new Promise((resolve) => {
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      for (const t of timers) clearTimeout(t);
      process.off('exit', orphanGuard);
      if (timedOut) killGroup(child.pid!, 'SIGKILL');
      const ms = Math.round(performance.now() - start);
      const closed = () => resolve({ exitCode, signal, timedOut, ms });
      if (child.stdout.closed && child.stderr.closed) return closed();
      const cut = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        closed();
      }, PIPE_DRAIN_MS);
      child.on('close', () => {
        clearTimeout(cut);
        closed();
      });
    };
    child.on('error', () => finish(127, null));
    child.on('exit', finish);
  });
}

/** "exit 3", "timed out after 5 s", "killed by SIGKILL" */
export function describeOutcome(outcome: HookOutcome, timeoutMs: number): string {
  if (outcome.timedOut) return `timed out after ${timeoutMs / 1000} s (its process group was killed)`;
  if (outcome.exitCode !== null) return `exit ${outcome.exitCode}`;
  return `killed by ${outcome.signal}`;
}

export const hookSucceeded = (outcome: HookOutcome): boolean => !outcome.timedOut && outcome.exitCode === 0;
