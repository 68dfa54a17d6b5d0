// One trident process of a schedule: started in a process group of its own, interrupted as the schedule
// says, and never allowed to outlive its time bound (a process that needs it is a failure of its own).
import { spawn } from 'node:child_process';
import { BIN, childEnv } from '../helpers/cli.js';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import type { Interruption } from './schedule.js';

export const PROCESS_BOUND_MS = 20_000;

export interface Started {
  argv: string[];
  configDir: string;
  cwd: string;
  interruption?: Interruption;
  /** More environment: the client's keyring. */
  env?: Record<string, string>;
}

export interface Finished {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The schedule's signal was sent while the process still ran. */
  signalled: boolean;
  /** It reached the time bound and was killed. */
  timedOut: boolean;
}

function killSafely(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // gone already
  }
}

export function runTrident({ argv, configDir, cwd, interruption, env }: Started): Promise<Finished> {
  const crash = interruption?.kind === 'checkpoint' ? { [CRASH_ENV]: interruption.point } : {};
  const child = spawn(process.execPath, [BIN, ...argv], {
    cwd,
    env: childEnv({ configDir, env: { ...env, ...crash } }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid!;
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let exited = false;
  let signalled = false;
  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  if (interruption?.kind === 'signal') {
    timers.push(
      setTimeout(() => {
        if (exited) return;
        signalled = true;
        killSafely(interruption.to === 'group' ? -pid : pid, interruption.signal);
      }, interruption.afterMs),
    );
  }
  timers.push(
    setTimeout(() => {
      timedOut = true;
      killSafely(-pid, 'SIGKILL');
    }, PROCESS_BOUND_MS),
  );
  child.on('exit', () => (exited = true));
  return new Promise((resolve) => {
    child.on('close', (exitCode, signal) => {
      for (const timer of timers) clearTimeout(timer);
      resolve({ exitCode, signal, stdout, stderr, signalled, timedOut });
    });
  });
}
