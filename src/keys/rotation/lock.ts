// One process at a time works on a rotation: the journal's lock is taken before the journal is created, or
// before it is read again for --resume / --abort, and held until the command ends. A lock whose holder died
// (kill -9) is taken over at once; a live holder's is refused, never waited for.
import { ExitCode, TridentError } from '../../core/errors.js';
import { takePidLock } from '../../core/files/pid-lock.js';

export function lockRotation(journalPath: string): () => void {
  const lock = takePidLock(journalPath);
  if (lock.held) return lock.release;
  const pid = lock.holder.pid > 0 ? ` (pid ${lock.holder.pid})` : '';
  throw new TridentError(ExitCode.usage, `another trident process${pid} is working on this rotation (journal ${journalPath})`, {
    hint: 'let it finish; if it hangs, stop it, then run trident keys rotate --resume or --abort',
  });
}
