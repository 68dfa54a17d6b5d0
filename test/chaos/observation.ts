// What a schedule's run leaves to be checked: every process with what it printed and what its client's disk
// showed when it ended, the sandbox's own record of keys made and deleted, and each client's final state.
import type { KeyEvent } from '../../src/sandbox/keys/server.js';
import type { AppState, ProfileState } from './disk.js';
import type { Finished } from './process.js';
import type { Interruption, Schedule } from './schedule.js';

export interface ProcessRecord {
  /** "step2.run1", or "settle.c0.resume1", "settle.c0.list" for the final settle. */
  label: string;
  client: number;
  argv: string[];
  interruption?: Interruption;
  /** Milliseconds since the schedule started. */
  startedMs: number;
  endedMs: number;
  finished: Finished;
  /** How many sandbox events had happened when it started. */
  eventsAtStart: number;
  /** How many sandbox events had happened when it ended: what it reported is judged against those. */
  eventsAtExit: number;
  /** Its client's profile when it ended. */
  profileAtExit: ProfileState;
  /** The public half held by each private key file it reported (-o json `private_key_file`), when it ended. */
  reportedFiles: Record<string, string | null>;
}

export interface ClientState {
  index: number;
  initialKeyId: string;
  /** The key the second profile started on, the client's too. */
  secondKeyId?: string;
  hooks: boolean;
  /** Public halves of every private key on its disk. */
  held: string[];
  profile: ProfileState;
  /** Every profile of its config dir, the default one among them. */
  profiles: Record<string, ProfileState>;
  app?: AppState;
  journalsLeft: string[];
  /** The names sent for key requests its ledger still has pending after the settle (a late key not yet seen). */
  pendingRequests: string[];
}

export interface Observation {
  schedule: Schedule;
  workDir: string;
  bootstrapKeyId: string;
  processes: ProcessRecord[];
  events: KeyEvent[];
  /** Keys on the service at the end. */
  alive: string[];
  /** The public half of every key that ever existed, by id. */
  publicKeys: Record<string, string>;
  clients: ClientState[];
  /** What went wrong with the harness itself: a process past its bound, a hook that would not end. */
  harness: string[];
}
