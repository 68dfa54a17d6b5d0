import { readFileSync } from 'node:fs';

/** Whether a process is alive: not gone, and not a zombie waiting for its reaper (Linux /proc). */
export function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}
