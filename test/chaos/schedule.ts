// A chaos schedule and how one is drawn from a seed. The schedule (clients, commands, faults, interruptions
// and their delays) is a pure function of the seed, so a failing seed replays the same attack; only the
// timing of the real processes varies from run to run.
import { Rng } from '../../src/sandbox/rng.js';

export type Signal = 'SIGKILL' | 'SIGTERM' | 'SIGHUP';

export type Interruption =
  /** A signal `afterMs` after the start, to trident alone or to its whole process group. */
  | { kind: 'signal'; signal: Signal; afterMs: number; to: 'trident' | 'group' }
  /** trident kills itself at this checkpoint (the test build's TRIDENT_TEST_CRASH_AFTER). */
  | { kind: 'checkpoint'; point: string }
  /** The application's hook kills trident (SIGKILL) once it has done its work at this step. */
  | { kind: 'in-hook'; step: HookStep };

export type HookStep = 'deploy' | 'verify' | 'rollback';

export type Command =
  | { verb: 'generate' | 'create'; name: string; out: boolean }
  | { verb: 'rotate'; name?: string; local: boolean; keepOld: boolean; keepOldFor?: string }
  | { verb: 'resume' | 'abort' | 'prune' }
  /** The profile pointed back at a key a rotation kept (`config set keys.keyId`, then `keys.privateKeyFile`), as a person would. */
  | { verb: 'reuse' }
  /** `keys delete` of the key the client's second profile uses (as its disk says then): the ledger must refuse it. */
  | { verb: 'delete-claimed' }
  /** The default profile's key moved to the keyring or to a file (`keys move-to-keyring`/`move-to-file`). */
  | { verb: 'move'; to: 'keyring' | 'file' }
  /** The second profile pointed at the key the default profile uses now (two `config set --profile ci`). */
  | { verb: 'share' }
  /** A command that only reads what the ledger knows: `keys audit` or `keys list`. */
  | { verb: 'audit' | 'list' }
  /** `keys delete --force` of the key the second profile uses, when the default profile uses another: the report must name "ci". */
  | { verb: 'force-delete' }
  /** `config use`: the profile the config dir's commands use when they name none (every run then names its own). */
  | { verb: 'use'; profile: 'default' | 'ci' }
  /** `config unset` of one of the second profile's key settings, then `keys setup --force` binding it to its key again. */
  | { verb: 'unset'; setting: 'keys.keyId' | 'keys.privateKeyFile' }
  /** `keys setup --force` of the second profile with the key, and a file of its private half, that profile `from` uses. */
  | { verb: 'setup'; from: 'default' | 'ci' };

export interface Run {
  client: number;
  /** After the step starts. */
  delayMs: number;
  command: Command;
  interruption?: Interruption;
}

/**
 * What the service does to one request of the step: `late` acts after the client gave up (its --timeout),
 * `lost` acts and drops the connection, `error-after` acts and answers 503, `reset-before` drops the
 * connection without acting.
 */
export interface FaultPlan {
  kind: 'late' | 'lost' | 'error-after' | 'reset-before';
  on: 'mint' | 'delete';
  /** Matching requests that pass untouched first. */
  skip: number;
}

export interface Step {
  /** Started together (each after its delay). */
  runs: Run[];
  fault?: FaultPlan;
}

export interface ClientPlan {
  /** Name of the client's first key (clients may share one: their rotations then derive the same names). */
  keyName: string;
  /** Its rotations switch an application too (--deploy/--verify). */
  hooks: boolean;
  /** How the final settle finishes a rotation left behind. */
  settle: 'resume' | 'abort';
}

export interface Schedule {
  seed: number;
  clients: ClientPlan[];
  steps: Step[];
}

/** A late fault holds the request this long; the clients of that step give up after 1 s (--timeout 1). */
export const LATE_MS = 2500;

// Checkpoint names of the test build. Kept here rather than imported, so that a seed draws the same schedule
// whatever the code under test calls its steps (a name it no longer has only means no crash).
const MINT_POINTS = ['pending', 'answered', 'stored'] as const;
const ROTATION_POINTS = [
  'minting',
  'pending',
  'answered',
  'stored',
  'switching',
  'switched',
  'verified',
  'deploying',
  'deployed',
  'verifying-app',
  'app-verified',
  'deleting-old',
  'old-deleted',
  'rolling-back-app',
  'rolling-back',
] as const;

// Few names, so that clients collide on them: the race this harness is after.
const KEY_NAMES = ['alpha', 'beta'] as const;
const ROTATION_NAME = 'next';

/** One of the keys, with probability proportional to its weight. */
function weighted<K extends string>(random: Rng, weights: Readonly<Record<K, number>>): K {
  const entries = Object.entries(weights) as Array<[K, number]>;
  let left = random.next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [key, weight] of entries) {
    left -= weight;
    if (left < 0) return key;
  }
  return entries.at(-1)![0];
}

function command(random: Rng): Command {
  const verb = weighted(random, { generate: 25, create: 20, rotate: 35, resume: 10, abort: 10 });
  if (verb === 'generate' || verb === 'create') return { verb, name: random.pick(KEY_NAMES), out: random.chance(0.3) };
  if (verb === 'rotate') {
    const named = random.chance(0.4);
    return { verb, ...(named ? { name: ROTATION_NAME } : {}), local: random.chance(0.4), keepOld: random.chance(0.2) };
  }
  return { verb };
}

function interruption(random: Rng, command: Command, hooks: boolean): Interruption | undefined {
  if (!random.chance(0.45)) return undefined;
  const rotating = command.verb !== 'generate' && command.verb !== 'create';
  const kind = weighted(random, { signal: 60, checkpoint: 25, 'in-hook': hooks && rotating ? 15 : 0 });
  if (kind === 'checkpoint') return { kind, point: random.pick(rotating ? ROTATION_POINTS : MINT_POINTS) };
  if (kind === 'in-hook') return { kind, step: weighted(random, { deploy: 45, verify: 45, rollback: 10 }) };
  return {
    kind: 'signal',
    signal: weighted(random, { SIGKILL: 50, SIGTERM: 30, SIGHUP: 20 }),
    afterMs: random.int(30, 1000),
    to: random.chance(0.3) ? 'group' : 'trident',
  };
}

function fault(random: Rng): FaultPlan | undefined {
  if (!random.chance(0.5)) return undefined;
  return {
    kind: weighted(random, { late: 30, lost: 30, 'error-after': 20, 'reset-before': 20 }),
    on: random.chance(0.8) ? 'mint' : 'delete',
    skip: random.chance(0.25) ? 1 : 0,
  };
}

/** How long a rotation with --keep-old-for keeps its old key: due within the schedule, so that prunes act. */
export const KEEP_OLD_FOR = '0.001m';
const PRUNE_POINTS = ['prune-deleting', 'prune-deleted'] as const;

/**
 * The optional overlap actions, drawn from a stream of their own so that every seed keeps the schedule it drew
 * before they existed, with these added: some rotations keep their old key (--keep-old-for), and a step with
 * room for it gets a `keys prune`, killed at times before or after its delete.
 */
function withOverlap(seed: number, steps: Step[], clients: number): Step[] {
  const random = new Rng(seed ^ 0x0ec1a95e);
  return steps.map((step) => {
    const runs = step.runs.map((run): Run => {
      const { command } = run;
      if (command.verb !== 'rotate' || command.keepOld || !random.chance(0.3)) return run;
      return { ...run, command: { ...command, keepOldFor: KEEP_OLD_FOR } };
    });
    if (runs.length < 3 && random.chance(0.35)) {
      const cut = random.chance(0.35)
        ? random.chance(0.6)
          ? ({ kind: 'checkpoint', point: random.pick(PRUNE_POINTS) } as const)
          : ({ kind: 'signal', signal: random.pick(['SIGKILL', 'SIGTERM'] as const), afterMs: random.int(30, 600), to: 'trident' } as const)
        : undefined;
      runs.push({
        client: random.int(0, clients - 1),
        delayMs: random.int(0, 1500),
        command: { verb: 'prune' },
        ...(cut ? { interruption: cut } : {}),
      });
    }
    return { ...step, runs };
  });
}

/**
 * Profiles pointed back at a kept key, from a stream of their own (every seed keeps what it drew before): mostly
 * where the race is, in a step where a client that kept an old key in an earlier step prunes, started about when
 * the prune sends its delete. Only clients without an application: pointing the profile back leaves the
 * application on the new key, which is the person's doing, not trident's.
 */
function withReuse(seed: number, steps: Step[], clients: ClientPlan[]): Step[] {
  const random = new Rng(seed ^ 0x5e7b4c1d);
  const kept = new Set<number>();
  const plain = clients.flatMap((client, index) => (client.hooks ? [] : [index]));
  return steps.map((step) => {
    const prune = step.runs.find((run) => run.command.verb === 'prune' && kept.has(run.client) && plain.includes(run.client));
    for (const run of step.runs) if (run.command.verb === 'rotate' && run.command.keepOldFor !== undefined) kept.add(run.client);
    if (step.runs.length >= 3 || plain.length === 0 || !(prune ? random.chance(0.8) : random.chance(0.03))) return step;
    const reuse: Run = prune
      ? { client: prune.client, delayMs: Math.max(0, prune.delayMs + random.int(-100, 500)), command: { verb: 'reuse' } }
      : { client: random.pick(plain), delayMs: random.int(0, 1500), command: { verb: 'reuse' } };
    return { ...step, runs: [...step.runs, reuse] };
  });
}

/**
 * The commands of the key ledger beside the lifecycle's, from a stream of their own (every seed keeps what it
 * drew before): deletes of a key another profile of the client uses, moves of the profile's key between the
 * keyring and a file, the second profile pointed at the first one's key, and the commands that only read.
 */
function withLedger(seed: number, steps: Step[], clients: number): Step[] {
  const random = new Rng(seed ^ 0x1ed6e4a7);
  return steps.map((step) => {
    if (step.runs.length >= 3 || !random.chance(0.5)) return step;
    const verb = weighted(random, { 'delete-claimed': 30, move: 35, share: 15, audit: 10, list: 10 });
    const command: Command = verb === 'move' ? { verb, to: random.chance(0.6) ? 'keyring' : 'file' } : { verb };
    const cut =
      (verb === 'move' || verb === 'delete-claimed') && random.chance(0.3)
        ? ({ kind: 'signal', signal: random.pick(['SIGKILL', 'SIGTERM'] as const), afterMs: random.int(30, 600), to: 'trident' } as const)
        : undefined;
    const run: Run = { client: random.int(0, clients - 1), delayMs: random.int(0, 800), command, ...(cut ? { interruption: cut } : {}) };
    return { ...step, runs: [...step.runs, run] };
  });
}

/** Runs that read the second profile's key as they start and act on it, as `force-delete` and `unset` do. */
const READS_SECOND_KEY: readonly string[] = ['delete-claimed', 'share'];

/**
 * The commands that change which key a profile names, or which profile is the default, from a stream of their own
 * (every seed keeps what it drew before): `keys delete --force` of the key another profile uses, `config use`,
 * `config unset` of a key setting (with the `keys setup` that binds the profile again) and `keys setup`. A delete or
 * unset of the second profile's key is left out of a step where the same client reads that key in another run (a
 * claimed delete, a share) or prunes: the invariants could no longer tell which run deleted it, or the profile would
 * be left with no key because the harness itself raced.
 */
function withProfileCommands(seed: number, steps: Step[], clients: number): Step[] {
  const random = new Rng(seed ^ 0x7c3f1b29);
  return steps.map((step) => {
    if (step.runs.length >= 3 || !random.chance(0.4)) return step;
    const verb = weighted(random, { 'force-delete': 30, use: 25, unset: 20, setup: 25 });
    const client = random.int(0, clients - 1);
    const delayMs = random.int(0, 800);
    const command: Command =
      verb === 'use'
        ? { verb, profile: random.chance(0.7) ? 'ci' : 'default' }
        : verb === 'unset'
          ? { verb, setting: random.chance(0.4) ? 'keys.keyId' : 'keys.privateKeyFile' }
          : verb === 'setup'
            ? { verb, from: random.chance(0.5) ? 'default' : 'ci' }
            : { verb };
    const cut =
      verb === 'force-delete' && random.chance(0.3)
        ? ({ kind: 'signal', signal: random.pick(['SIGKILL', 'SIGTERM'] as const), afterMs: random.int(30, 600), to: 'trident' } as const)
        : undefined;
    const releasesSecondKey = verb === 'force-delete' || (command.verb === 'unset' && command.setting === 'keys.keyId');
    const raced = step.runs.some(
      (run) => run.client === client && (READS_SECOND_KEY.includes(run.command.verb) || (verb === 'unset' && run.command.verb === 'prune')),
    );
    if (releasesSecondKey && raced) return step;
    return { ...step, runs: [...step.runs, { client, delayMs, command, ...(cut ? { interruption: cut } : {}) }] };
  });
}

/** Whether a schedule switches a config dir's default profile (`config use`): its runs then name their profile. */
export const switchesDefault = (schedule: Schedule): boolean =>
  schedule.steps.some((step) => step.runs.some((run) => run.command.verb === 'use'));

/** Whether a schedule moves keys into the keyring: its clients then share one Secret Service. */
export const movesToKeyring = (schedule: Schedule): boolean =>
  schedule.steps.some((step) => step.runs.some((run) => run.command.verb === 'move' && run.command.to === 'keyring'));

export function scheduleFor(seed: number): Schedule {
  const random = new Rng(seed);
  const sharedName = random.chance(0.5);
  const clients = Array.from({ length: random.int(2, 3) }, (_, index): ClientPlan => ({
    keyName: sharedName ? 'app' : `app-${index}`,
    hooks: random.chance(0.4),
    settle: random.chance(0.6) ? 'resume' : 'abort',
  }));
  const steps = Array.from({ length: random.int(2, 5) }, (): Step => {
    const runs = Array.from({ length: Number(weighted(random, { '1': 40, '2': 40, '3': 20 })) }, (): Run => {
      const client = random.int(0, clients.length - 1);
      const chosen = command(random);
      const cut = interruption(random, chosen, clients[client]!.hooks);
      return { client, delayMs: random.int(0, 400), command: chosen, ...(cut ? { interruption: cut } : {}) };
    });
    const planned = fault(random);
    return { runs, ...(planned ? { fault: planned } : {}) };
  });
  const drawn = withLedger(seed, withReuse(seed, withOverlap(seed, steps, clients.length), clients), clients.length);
  return { seed, clients, steps: withProfileCommands(seed, drawn, clients.length) };
}
