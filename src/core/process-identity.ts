// Telling whether a process recorded earlier (a lock's holder, a hook's process group) is still that process:
// a pid alone can be reused once its process has ended, so its start time is recorded beside it where /proc
// has one.
import { readFileSync } from 'node:fs';

/** The start time of process `pid` (field 22 of /proc/<pid>/stat), where /proc has one. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether a process (a pid) or a process group (minus its id) exists: signal 0 checks without sending. */
function exists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const processGroupAlive = (pgid: number): boolean => exists(-pgid);

/** True while the process `pid` runs and, where its start time was recorded, is the one that started then. */
export function processAlive(pid: number, startTime?: string): boolean {
  if (!exists(pid)) return false;
  const now = startTime === undefined ? undefined : processStartTime(pid);
  return now === undefined || now === startTime;
}
