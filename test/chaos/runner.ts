// Runs one schedule: a sandbox, its clients, each step's processes (at once, with the step's fault on the
// sandbox and each run's interruption), then the final settle of every client, and records it all.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKeysSandbox, type KeysSandbox } from '../../src/sandbox/keys/server.js';
import { tridentArgs } from './argv.js';
import { startKeyringSession } from '../helpers/keyring-session.js';
import { CHAOS_STORE, PROFILE, PROFILES, SECOND_PROFILE, armHookKill, setUpClient, type Client } from './clients.js';
import { filePublicKey, heldByClient, journalsLeft, keptKeys, overlapRecordsLeft, pendingRequests, readApp, readProfile } from './disk.js';
import { faultRule } from './faults.js';
import type { Observation, ProcessRecord } from './observation.js';
import { PROCESS_BOUND_MS, runTrident, type Finished } from './process.js';
import { runProfileCommand } from './profile-runs.js';
import { movesToKeyring, switchesDefault, type Interruption, type Schedule } from './schedule.js';
import { waitForStrays } from './strays.js';

/** --resume or --abort runs at most this often per client in the final settle. */
export const SETTLE_ATTEMPTS = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The private key files a command's report names: the `private_key_file` of its -o json report, and the places
 * its messages give for a key ("its private key is in <file>", "kept key <id>, its private key in <file>").
 */
function reportedFiles(finished: Finished): string[] {
  const files: string[] = [];
  try {
    const report = JSON.parse(finished.stdout) as { private_key_file?: unknown };
    if (typeof report.private_key_file === 'string') files.push(report.private_key_file);
  } catch {
    // not a report: its messages may still name a place
  }
  for (const match of `${finished.stdout}\n${finished.stderr}`.matchAll(/its private key (?:is )?in (\S+?)[,;)]?(?=\s|$)/g)) {
    files.push(match[1]!);
  }
  return [...new Set(files)];
}

/** Every private key file a report of the client's commands named. */
function reportedPlaces(processes: readonly ProcessRecord[], client: number): string[] {
  return processes.filter((record) => record.client === client).flatMap((record) => Object.keys(record.reportedFiles));
}

class ScheduleRun {
  readonly processes: ProcessRecord[] = [];
  readonly harness: string[] = [];
  private readonly start = performance.now();

  /**
   * `sandbox` and `clients` as set up; `namesProfile`: the schedule switches a config dir's default profile
   * (`config use`), so every run that means the default profile names it (--profile default), and the profile each
   * run acts on stays the one the invariants judge it by.
   */
  constructor(
    private readonly sandbox: KeysSandbox,
    private readonly clients: Client[],
    private readonly namesProfile = false,
  ) {}

  private now(): number {
    return Math.round(performance.now() - this.start);
  }

  async launch(label: string, client: Client, given: string[], interruption?: Interruption): Promise<ProcessRecord> {
    const argv = this.namesProfile && !given.includes('--profile') ? ['--profile', PROFILE, ...given] : given;
    const startedMs = this.now();
    const eventsAtStart = this.sandbox.control.events().length;
    const finished = await runTrident({
      argv,
      configDir: client.configDir,
      cwd: client.root,
      ...(interruption ? { interruption } : {}),
      ...(client.keyring ? { env: client.keyring.env } : {}),
    });
    const files = reportedFiles(finished);
    const record: ProcessRecord = {
      label,
      client: client.index,
      argv,
      ...(interruption ? { interruption } : {}),
      startedMs,
      endedMs: this.now(),
      finished,
      eventsAtStart,
      eventsAtExit: this.sandbox.control.events().length,
      profileAtExit: readProfile(client),
      reportedFiles: Object.fromEntries(files.map((file) => [file, filePublicKey(file, client) ?? null])),
    };
    if (finished.timedOut) this.harness.push(`${label} (client ${client.index}) ran past ${PROCESS_BOUND_MS} ms and was killed`);
    this.processes.push(record);
    return record;
  }

  async hooksGone(when: string): Promise<void> {
    const killed = await waitForStrays(
      this.clients.flatMap((client) => (client.app ? [client.app.dir] : [])),
      PROCESS_BOUND_MS,
    );
    if (killed.length > 0)
      this.harness.push(`hook processes ${killed.join(', ')} still ran ${PROCESS_BOUND_MS} ms ${when} and were killed`);
  }

  /**
   * The profile pointed back at the key the client's earliest overlap record keeps, and at its file, in one
   * `config set`; nothing when none is kept.
   */
  async reuse(client: Client, label: string): Promise<void> {
    const kept = keptKeys(client)[0];
    if (!kept) return;
    await this.launch(label, client, [
      'config',
      'set',
      'keys.keyId',
      kept.id,
      ...(kept.file !== null ? ['keys.privateKeyFile', kept.file] : []),
    ]);
  }

  /** `keys delete` of the key the client's second profile uses as it starts: refused while anything names it. */
  async deleteClaimed(client: Client, label: string): Promise<void> {
    const { keyId } = readProfile(client, SECOND_PROFILE);
    if (keyId !== undefined) await this.launch(label, client, ['keys', 'delete', keyId, '--yes', '-o', 'json']);
  }

  /** The second profile pointed at the key, and the place, the default profile uses as it starts: one `config set` of both. */
  async share(client: Client, label: string): Promise<void> {
    const { keyId, privateKeyFile } = readProfile(client);
    if (keyId === undefined || privateKeyFile === undefined) return;
    await this.launch(label, client, [
      '--profile',
      SECOND_PROFILE,
      'config',
      'set',
      'keys.keyId',
      keyId,
      'keys.privateKeyFile',
      privateKeyFile,
    ]);
  }

  /** --resume or --abort until no journal is left (bounded), then keys list, which settles pending records. */
  async settle(client: Client, action: 'resume' | 'abort'): Promise<void> {
    for (let attempt = 1; attempt <= SETTLE_ATTEMPTS && journalsLeft(client).length > 0; attempt++) {
      await this.launch(`settle.c${client.index}.${action}${attempt}`, client, ['keys', 'rotate', `--${action}`, '--yes', '-o', 'json']);
      await this.hooksGone('after the settle');
    }
    await this.launch(`settle.c${client.index}.list`, client, ['keys', 'list', '-o', 'json']);
    // Old keys kept by --keep-old-for: a prune once they are due (kept for 60 ms).
    if (overlapRecordsLeft(client).length > 0) await this.launch(`settle.c${client.index}.prune`, client, ['keys', 'prune', '-o', 'json']);
  }
}

async function idleWithin(sandbox: KeysSandbox, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const idle = await Promise.race([sandbox.server.idle().then(() => true as const), late]);
  clearTimeout(timer);
  return idle;
}

export async function runSchedule(schedule: Schedule): Promise<Observation> {
  const workDir = mkdtempSync(join(tmpdir(), `trident-chaos-${schedule.seed}-`));
  const sandbox = await startKeysSandbox({ dir: join(workDir, 'sandbox') });
  let clients: Client[] = [];
  // One Secret Service for every client, each config dir with its own entries in it, as on one desktop.
  const shared = CHAOS_STORE === 'keyring' || movesToKeyring(schedule) ? await startKeyringSession() : undefined;
  try {
    clients = await Promise.all(schedule.clients.map((plan, index) => setUpClient(sandbox, plan, index, workDir, shared)));
    const run = new ScheduleRun(sandbox, clients, switchesDefault(schedule));
    for (const [s, step] of schedule.steps.entries()) {
      if (step.fault) sandbox.server.faults.add(faultRule(step.fault));
      await Promise.all(
        step.runs.map(async (planned, r) => {
          await sleep(planned.delayMs);
          const client = clients[planned.client]!;
          const label = `step${s + 1}.run${r + 1}`;
          if (planned.command.verb === 'reuse') return run.reuse(client, label);
          if (planned.command.verb === 'share') return run.share(client, label);
          if (planned.command.verb === 'delete-claimed') return run.deleteClaimed(client, label);
          const { command } = planned;
          if (command.verb === 'force-delete' || command.verb === 'use' || command.verb === 'unset' || command.verb === 'setup')
            return runProfileCommand(run, sandbox, client, label, command, planned.interruption);
          if (planned.interruption?.kind === 'in-hook') armHookKill(client, true);
          const argv = tridentArgs(planned.command, {
            client,
            label,
            impatient: step.fault?.kind === 'late',
            ...(planned.interruption ? { interruption: planned.interruption } : {}),
          });
          await run.launch(label, client, argv, planned.interruption);
        }),
      );
      // A fault no request of this step met does not spill into the next.
      sandbox.server.faults.clear();
      await run.hooksGone(`after step ${s + 1}`);
    }
    // A key minted late lands before anything is settled or checked.
    if (!(await idleWithin(sandbox, PROCESS_BOUND_MS)))
      run.harness.push(`the sandbox still handled requests ${PROCESS_BOUND_MS} ms after the last step`);
    for (const client of clients) armHookKill(client, false);
    for (const client of clients) await run.settle(client, schedule.clients[client.index]!.settle);

    const events = sandbox.control.events();
    const ids = new Set([...events.map((event) => event.id), ...clients.flatMap((client) => [client.initialKeyId, client.secondKeyId])]);
    const publicKeys: Record<string, string> = {};
    for (const id of ids) {
      const pem = sandbox.control.publicKeyPemEver(id);
      if (pem !== undefined) publicKeys[id] = pem;
    }
    return {
      schedule,
      workDir,
      bootstrapKeyId: sandbox.bootstrap.keyId,
      processes: run.processes,
      events,
      alive: sandbox.control.listKeys().map((key) => key.api_key),
      publicKeys,
      clients: clients.map((client) => {
        const app = readApp(client);
        return {
          index: client.index,
          initialKeyId: client.initialKeyId,
          secondKeyId: client.secondKeyId,
          hooks: client.app !== undefined,
          held: [...heldByClient(client, reportedPlaces(run.processes, client.index))],
          profile: readProfile(client),
          profiles: Object.fromEntries(PROFILES.map((profile) => [profile, readProfile(client, profile)])),
          ...(app ? { app } : {}),
          journalsLeft: journalsLeft(client),
          pendingRequests: pendingRequests(client),
        };
      }),
      harness: run.harness,
    };
  } finally {
    await shared?.stop();
    await sandbox.close();
  }
}
