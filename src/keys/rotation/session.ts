// One rotation in progress, as its phases share it: the journal (changed in memory only once it is on disk),
// the clients signed by the old and the new key, the record of every step, and the result it ends with.
import type { Context } from '../../context.js';
import { ExitCode, TridentError } from '../../core/errors.js';
import type { ApiKey } from '../client.js';
import { PRIVATE_KEY_ENV, signerFromFile } from '../connection.js';
import { privateKeyFromPem } from '../mint/keypair.js';
import { mintTools } from '../mint/live-tools.js';
import type { MintTools } from '../mint/settle.js';
import type { Signer } from '../signing.js';
import type { KeyService, RotationDeps } from './deps.js';
import { saveJournal, type Journal, type Phase, type StepRecord } from './journal.js';
import { logStep } from './steps.js';

export interface RotationOptions {
  resumed: boolean;
  oldClient?: KeyService;
  /** --hook-timeout given to --resume/--abort */
  hookTimeoutS?: number;
}

export interface RotationResult {
  outcome: 'rotated' | 'rolled back' | 'aborted';
  journal: Journal;
  exitCode: number;
  /** Why the exit code is not 0; printed after the report. */
  problem?: TridentError;
}

/** The milliseconds a step took since `start` (a performance.now()). */
export const since = (start: number) => Math.round(performance.now() - start);

export class RotationSession {
  private readonly clients = new Map<'old' | 'new', Promise<KeyService>>();

  constructor(
    readonly ctx: Context,
    readonly path: string,
    readonly journal: Journal,
    readonly deps: RotationDeps,
    readonly options: RotationOptions,
  ) {
    if (options.oldClient) this.clients.set('old', Promise.resolve(options.oldClient));
  }

  /** The journal in memory changes only once it is on disk: what a failure reports is what the disk says. */
  async save(changes: Partial<Journal> = {}, step?: StepRecord): Promise<void> {
    const next: Journal = {
      ...this.journal,
      ...changes,
      updated_at: this.ctx.now().toISOString(),
      steps: step ? [...this.journal.steps, step] : this.journal.steps,
    };
    await saveJournal(this.path, next);
    Object.assign(this.journal, next);
    if (step) logStep(this.ctx, step);
  }

  /** Journals the phase, then gives the crash tests their chance. */
  async enter(phase: Phase, changes: Partial<Journal> = {}, step?: StepRecord): Promise<void> {
    await this.save({ ...changes, phase }, step);
    await this.deps.checkpoint(phase);
  }

  record(step: StepRecord): void {
    this.journal.steps.push(step);
    logStep(this.ctx, step);
  }

  warn(message: string): void {
    this.journal.warnings.push(message);
    this.ctx.log.warn(message);
  }

  client(which: 'old' | 'new'): Promise<KeyService> {
    let client = this.clients.get(which);
    if (!client) {
      const signer = which === 'old' ? this.oldSigner() : signerFromFile(this.ctx, this.newKey().api_key, this.journal.private_key_file!);
      client = signer.then((ready) => this.deps.client(ready));
      this.clients.set(which, client);
    }
    return client;
  }

  newKey(): ApiKey {
    if (!this.journal.new_key) throw new Error(`rotation journal ${this.path}: no new key at step ${this.journal.phase}`);
    return this.journal.new_key;
  }

  mintTools(client: KeyService): MintTools {
    return mintTools(this.ctx, new URL(this.journal.url), client, (signer) => this.deps.client(signer), this.deps.checkpoint);
  }

  private async oldSigner(): Promise<Signer> {
    const { api_key: keyId, private_key_file: file } = this.journal.old_key;
    if (file !== null) return signerFromFile(this.ctx, keyId, file);
    const pem = this.ctx.env[PRIVATE_KEY_ENV];
    if (!pem) {
      throw new TridentError(ExitCode.auth, `the old key ${keyId} came from ${PRIVATE_KEY_ENV}, which is not set now`, {
        hint: `set ${PRIVATE_KEY_ENV} to its PEM again`,
      });
    }
    return { keyId, privateKey: privateKeyFromPem(pem, PRIVATE_KEY_ENV), source: PRIVATE_KEY_ENV };
  }
}
