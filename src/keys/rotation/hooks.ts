// The application's side of a rotation: the --deploy and --verify commands, run through /bin/sh in a
// process group of their own. The PEM of the key being deployed goes to stdin only: argv and environment are
// visible to other users (ps, /proc), so they get ids and paths and never a secret. Their output goes to
// trident's stderr (stdout is the report); the exit code is recorded, the output never.
// A hook belongs to its rotation's journal: its process group is journaled before its command may start, so
// that a hook which outlives a killed trident is ended by the --resume or --abort that comes next.
import { spawn } from 'node:child_process';
import { processGroupAlive, processStartTime } from '../../core/process-identity.js';
import type { Writable } from 'node:stream';
import type { OutStream } from '../../context.js';
import type { RunningHook } from './journal.js';

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

/**
 * The shell waits on fd 3 for the go-ahead, given once the process group is journaled; if trident dies first,
 * fd 3 closes and the command never runs. `exec` keeps the pid, so the group stays the one journaled.
 */
const GATED = 'read -r _ <&3 || exit 125; exec /bin/sh -c "$1" 3<&-';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (!processGroupAlive(pgid)) return true;
    await sleep(50);
  }
  return !processGroupAlive(pgid);
}

/**
 * Ends a journaled hook's process group if it is still there: SIGTERM, then SIGKILL. A group whose leader's
 * pid now belongs to a process that started at another time is somebody else's and is left alone.
 */
export async function endSurvivingHook(hook: RunningHook): Promise<'ended' | 'gone'> {
  if (!processGroupAlive(hook.pgid)) return 'gone';
  const leaderStart = processStartTime(hook.pgid);
  if (leaderStart !== undefined && hook.leader_start !== undefined && leaderStart !== hook.leader_start) return 'gone';
  killGroup(hook.pgid, 'SIGTERM');
  if (!(await waitGone(hook.pgid, KILL_GRACE_MS))) {
    killGroup(hook.pgid, 'SIGKILL');
    await waitGone(hook.pgid, KILL_GRACE_MS);
  }
  return 'ended';
}

/** `onSpawn` journals the process group; the command starts only once it has. */
export function runHook(
  run: HookRun,
  env: NodeJS.ProcessEnv,
  output: OutStream,
  onSpawn: (pgid: number, leaderStart: string | undefined) => Promise<void> = async () => undefined,
): Promise<HookOutcome> {
  const start = performance.now();
  const child = spawn('/bin/sh', ['-c', GATED, 'trident-hook', run.command], {
    cwd: run.cwd,
    detached: true,
    env: hookEnvironment(env, run),
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => output.write(chunk));
  const gate = child.stdio[3] as Writable;
  gate.on('error', () => undefined);
  let journaled: Promise<void> = Promise.resolve();
  if (child.pid !== undefined) {
    const pid = child.pid;
    journaled = onSpawn(pid, processStartTime(pid)).then(
      () => void gate.end('go\n'),
      (error: unknown) => {
        killGroup(pid, 'SIGKILL');
        throw error;
      },
    );
  }
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
  // Handled below, once the hook has ended; marked handled now so that a failure in between crashes nothing.
  journaled.catch(() => undefined);
  return new Promise<HookOutcome>((resolve) => {
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
  }).then(async (outcome) => {
    // A hook whose group could not be journaled never ran its command: that failure is the one to report.
    await journaled;
    return outcome;
  });
}

/** "exit 3", "timed out after 5 s", "killed by SIGKILL" */
export function describeOutcome(outcome: HookOutcome, timeoutMs: number): string {
  if (outcome.timedOut) return `timed out after ${timeoutMs / 1000} s (its process group was killed)`;
  if (outcome.exitCode !== null) return `exit ${outcome.exitCode}`;
  return `killed by ${outcome.signal}`;
}

export const hookSucceeded = (outcome: HookOutcome): boolean => !outcome.timedOut && outcome.exitCode === 0;
