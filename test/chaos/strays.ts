// Hooks outlive a trident killed by SIGKILL (they run in a process group of their own) and may still write
// the application's state. Before the next step, and before anything is checked, they must be gone.
import { readdirSync, readFileSync } from 'node:fs';

/** Processes whose command line mentions one of `paths` (Linux /proc), other than this one. */
function straysOf(paths: string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let commandLine: string;
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (paths.some((path) => commandLine.includes(path))) found.push(pid);
  }
  return found;
}

/** Waits until no such process is left; past `boundMs` they are killed and their pids returned. */
export async function waitForStrays(paths: string[], boundMs: number): Promise<number[]> {
  if (paths.length === 0) return [];
  const deadline = Date.now() + boundMs;
  for (;;) {
    const left = straysOf(paths);
    if (left.length === 0) return [];
    if (Date.now() > deadline) {
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      return left;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
