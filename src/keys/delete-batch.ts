// keys delete of many keys: the exchange answers 429 without Retry-After when its write bucket is empty, so
// after one the deletes that follow are spaced out (core/http/pacing.ts).
import { Pacer } from '../core/http/pacing.js';
import type { DeleteOutcome, KeysClient } from './client.js';

export interface PacedDeletes {
  /** Deletes one key in its turn; `heard` is told of each 429 it met. */
  delete(id: string, heard: () => void): Promise<DeleteOutcome>;
  /** True once the service rate limited a delete and the next ones wait. */
  spacing(): boolean;
}

export function pacedDeletes(client: Pick<KeysClient, 'delete'>, pacer = new Pacer()): PacedDeletes {
  return {
    delete: (id, heard) => pacer.paced((onRateLimited) => client.delete(id, onRateLimited), heard),
    spacing: () => pacer.gap > 0,
  };
}
