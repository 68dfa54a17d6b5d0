import { existsSync, readFileSync } from 'node:fs';

/** Whether a process is alive: not gone, and not a zombie waiting for its reaper (Linux /proc). */
export function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits, bounded, until a file exists: how a test knows a server it started as a child is ready. */
export async function waitForFile(file: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} did not appear within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
