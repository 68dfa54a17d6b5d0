// The rotation state machine: make a new key, switch to it, confirm it works, and only then delete the old
// one. Every step is journaled before and after it runs (journal.ts). run() and resume() go forward
// from the journaled phase; abort() undoes what can still be undone. Each step can be repeated, so a process
// killed anywhere, even inside resume or abort, leaves a journal that another resume or abort can finish.
import { existsSync, readFileSync } from 'node:fs';
import type { Context } from '../../context.js';
import { ExitCode, TridentError, usageError } from '../../core/errors.js';
import { isInConfigDir } from '../../core/files/config-files.js';
import { fileSystemFailure } from '../../core/files/file-system-failure.js';
import { removeSecretFile } from '../../core/files/secret-file.js';
import { finishBeforeInterrupt, interruptHeldBack, setInterruptHint } from '../../core/term/interrupts.js';
import type { ApiKey, NewKey } from '../client.js';
import { PRIVATE_KEY_ENV, signerFromFile } from '../connection.js';
import { privateKeyFromPem } from '../mint/keypair.js';
import { forgetKey, recordKeyMade } from '../key-ages.js';
import { mintTools } from '../mint/live-tools.js';
import { mintKey, type MintedKey } from '../mint/mint.js';
import { checkedUntil, readPending, removePending, rewritePending } from '../mint/pending.js';
import { describeKeys, settleRecord, type MintTools } from '../mint/settle.js';
import type { KeyService, RotationDeps } from './deps.js';
import { PHASES, removeJournal, saveJournal, type Journal, type Phase, type StepRecord } from './journal.js';
import { DEFAULT_HOOK_TIMEOUT_S, describeOutcome, endSurvivingHook, hookSucceeded, runHook, type HookStep } from './hooks.js';
import { logStep } from './steps.js';
import type { Signer } from '../signing.js';

export interface RotationResult {
  outcome: 'rotated' | 'rolled back' | 'aborted';
  journal: Journal;
  exitCode: number;
  /** Why the exit code is not 0; printed after the report. */
  problem?: TridentError;
}

const since = (start: number) => Math.round(performance.now() - start);
const HOOK_STEP_NAMES: Record<HookStep, string> = { deploy: 'deploy', verify: 'verify-app', rollback: 'rollback-deploy' };
const phaseIndex = (phase: Phase) => PHASES.indexOf(phase);

export class Rotation {
  private readonly clients = new Map<'old' | 'new', Promise<KeyService>>();

  constructor(
    private readonly ctx: Context,
    readonly path: string,
    readonly journal: Journal,
    private readonly deps: RotationDeps,
    private readonly options: { resumed: boolean; oldClient?: KeyService; /** --hook-timeout given to --resume/--abort */ hookTimeoutS?: number },
  ) {
    if (options.oldClient) this.clients.set('old', Promise.resolve(options.oldClient));
  }

  /** A fresh rotation, its journal just created. */
  run(): Promise<RotationResult> {
    return this.guard(() => this.forward());
  }

  resume(): Promise<RotationResult> {
    this.record({ step: 'resume', status: 'done', ms: 0, phase: this.journal.phase });
    return this.guard(async () => {
      await this.tidyInterruptedRun();
      return this.forward();
    });
  }

  /** Undoes the rotation; once the old key's delete may have been sent, finishes it instead. */
  abort(): Promise<RotationResult> {
    this.record({ step: 'abort', status: 'done', ms: 0, phase: this.journal.phase });
    return this.guard(async () => {
      await this.tidyInterruptedRun();
      const { phase } = this.journal;
      if (phase === 'deleting-old' || phase === 'old-deleted') {
        this.warn('the delete of the old key had been sent already, so the rotation cannot be undone: finishing it instead');
        return this.forward();
      }
      return this.rollBack(undefined, true);
    });
  }

  /** Where a rotation stopped now would stand, and how to go on: for errors, and for an interrupt. */
  private pausedHint(): string | undefined {
    if (!existsSync(this.path)) return undefined;
    const how =
      this.journal.phase === 'rolling-back' || this.journal.phase === 'rolling-back-app'
        ? 'trident keys rotate --abort (or --resume) finishes rolling it back'
        : 'trident keys rotate --resume finishes it, trident keys rotate --abort undoes it';
    return `the rotation is paused at step "${this.journal.phase}" (journal ${this.path}): ${how}`;
  }

  /** An error that leaves the journal behind says how to go on. */
  private async guard(work: () => Promise<RotationResult>): Promise<RotationResult> {
    setInterruptHint(() => this.pausedHint());
    try {
      return await work();
    } catch (thrown) {
      const error = fileSystemFailure(thrown) ?? thrown;
      const paused = error instanceof TridentError ? this.pausedHint() : undefined;
      if (!(error instanceof TridentError) || paused === undefined) throw error;
      throw new TridentError(error.exitCode, error.message, {
        hint: [error.hint, paused].filter(Boolean).join('; '),
        status: error.status,
        code: error.code,
        cause: error,
      });
    } finally {
      setInterruptHint(undefined);
    }
  }

  /**
   * Before --resume or --abort goes on: a hook that outlived the trident that started it is ended, and a mint's
   * record left behind once the journal knew the key (killed between the two writes) goes.
   */
  private async tidyInterruptedRun(): Promise<void> {
    const { phase, pending } = this.journal;
    if (phase !== 'minting' && pending !== undefined && this.journal.new_key && isInConfigDir(this.ctx.configDir, 'pending', pending)) {
      await removeSecretFile(pending);
      await this.save({ pending: undefined });
    }
    const hook = this.journal.hook;
    if (!hook) return;
    if ((await endSurvivingHook(hook)) === 'ended') {
      this.warn(`the ${hook.step} command of the interrupted run (process group ${hook.pgid}) was still running: it was ended before going on`);
    }
    await this.save({ hook: undefined });
  }

  private async forward(): Promise<RotationResult> {
    for (;;) {
      let failure: TridentError | undefined;
      switch (this.journal.phase) {
        case 'minting':
          await this.mint();
          break;
        case 'stored':
        case 'switching':
          failure = await this.switchProfile();
          break;
        case 'switched':
          failure = await this.verify();
          break;
        case 'verified':
        case 'deployed':
        case 'app-verified': {
          const next = this.nextAfter(this.journal.phase);
          if (next === 'finish') return this.finish();
          await this.enter(next);
          break;
        }
        case 'deploying':
          failure = await this.deployNewKey();
          break;
        case 'verifying-app':
          failure = await this.verifyApp();
          break;
        case 'deleting-old': {
          const failed = await this.deleteOld();
          if (failed) return failed;
          break;
        }
        case 'old-deleted':
          return this.finish();
        case 'rolling-back-app':
        case 'rolling-back':
          return this.rollBack();
      }
      if (failure) return this.rollBack(failure);
    }
  }

  /** After the new key's check, the deploy and the application's verify: the next hook, or on to the old key. */
  private nextAfter(phase: 'verified' | 'deployed' | 'app-verified'): Phase | 'finish' {
    const hooks = this.journal.hooks;
    if (phase === 'verified' && hooks?.deploy) return 'deploying';
    if (phase !== 'app-verified' && hooks?.verify) return 'verifying-app';
    return this.journal.keep_old ? 'finish' : 'deleting-old';
  }

  // ---- journal

  /** The journal in memory changes only once it is on disk: what a failure reports is what the disk says. */
  private async save(changes: Partial<Journal> = {}, step?: StepRecord): Promise<void> {
    const next: Journal = { ...this.journal, ...changes, updated_at: this.ctx.now().toISOString(), steps: step ? [...this.journal.steps, step] : this.journal.steps };
    await saveJournal(this.path, next);
    Object.assign(this.journal, next);
    if (step) logStep(this.ctx, step);
  }

  /** Journals the phase, then gives the crash tests their chance. */
  private async enter(phase: Phase, changes: Partial<Journal> = {}, step?: StepRecord): Promise<void> {
    await this.save({ ...changes, phase }, step);
    await this.deps.checkpoint(phase);
  }

  private record(step: StepRecord): void {
    this.journal.steps.push(step);
    logStep(this.ctx, step);
  }

  private warn(message: string): void {
    this.journal.warnings.push(message);
    this.ctx.log.warn(message);
  }

  // ---- keys and clients

  private oldSigner(): Signer {
    const { api_key: keyId, private_key_file: file } = this.journal.old_key;
    if (file !== null) return signerFromFile(this.ctx, keyId, file);
    const pem = this.ctx.env[PRIVATE_KEY_ENV];
    if (!pem) {
      throw new TridentError(ExitCode.auth, `the old key ${keyId} came from ${PRIVATE_KEY_ENV}, which is not set now`, { hint: `set ${PRIVATE_KEY_ENV} to its PEM again` });
    }
    return { keyId, privateKey: privateKeyFromPem(pem, PRIVATE_KEY_ENV), source: PRIVATE_KEY_ENV };
  }

  private client(which: 'old' | 'new'): Promise<KeyService> {
    let client = this.clients.get(which);
    if (!client) {
      const signer = which === 'old' ? this.oldSigner() : signerFromFile(this.ctx, this.newKey().api_key, this.journal.private_key_file!);
      client = this.deps.client(signer);
      this.clients.set(which, client);
    }
    return client;
  }

  private newKey(): ApiKey {
    if (!this.journal.new_key) throw new Error(`rotation journal ${this.path}: no new key at step ${this.journal.phase}`);
    return this.journal.new_key;
  }

  private mintTools(client: KeyService): MintTools {
    return mintTools(this.ctx, new URL(this.journal.url), client, (signer) => this.deps.client(signer), this.deps.checkpoint);
  }

  // ---- forward steps

  /** The new key, through the same pending record and settlement as keys create and keys generate. */
  private async mint(): Promise<void> {
    const j = this.journal;
    const tools = this.mintTools(await this.client('old'));
    if (j.pending !== undefined && (await this.settleInterruptedMint(tools, false))) return;
    const start = performance.now();
    const key: NewKey = {
      name: j.new_name,
      ...(j.old_key.scopes.length > 0 ? { scopes: j.old_key.scopes } : {}),
      ...(j.old_key.subaccount !== null ? { subaccount: j.old_key.subaccount } : {}),
    };
    const pair = j.method === 'local' ? { pem: await this.deps.generatePair(), stagingDir: j.staging_dir } : undefined;
    try {
      await finishBeforeInterrupt('making the key', () =>
        mintKey(tools, { key, target: j.target_file, ...(pair ? { pair } : {}), rotation: this.path }, {
          recorded: (entry) => this.save({ pending: entry.path }),
          placed: (made) => this.keyMade(made, start),
        }),
      );
    } catch (error) {
      throw await this.mintFailed(error);
    }
    await this.save({ pending: undefined });
    if (interruptHeldBack()) throw new TridentError(ExitCode.interrupted, `interrupted after the new key ${this.newKey().api_key} was made and stored in ${j.private_key_file}`);
  }

  private async keyMade(made: MintedKey, start: number): Promise<void> {
    const { api_key: id, name } = made.apiKey;
    if (made.warning) this.warn(`the keys service says: ${made.warning}`);
    await recordKeyMade(this.ctx, id);
    this.record({ step: 'mint', status: 'done', ms: since(start), method: this.journal.method, api_key: id, name });
    await this.save({ phase: 'stored', new_key: made.apiKey, private_key_file: made.file! }, { step: 'store', status: 'done', ms: 0, file: made.file! });
  }

  /**
   * A mint whose outcome the mint settled already (no key, or one deleted again, or unknown and reported)
   * ends the rotation: nothing was switched. One whose record stays (the service may still make the key, or
   * the check failed) leaves the rotation paused at "minting" for --resume or --abort.
   */
  private async mintFailed(error: unknown): Promise<unknown> {
    const { pending } = this.journal;
    if (pending === undefined || !existsSync(pending)) await removeJournal(this.path);
    return error;
  }

  /**
   * After a crash or a lost answer while minting: the mint's record says what it made. A key whose private half
   * is in its place is taken (when `unwanted`, deleted); a key whose private half never arrived is deleted; a
   * key not listed yet is handed over to later keys commands, which delete it if it appears. True when the
   * rotation has its new key.
   */
  private async settleInterruptedMint(tools: MintTools, unwanted: boolean): Promise<boolean> {
    const j = this.journal;
    if (j.pending !== undefined && !isInConfigDir(this.ctx.configDir, 'pending', j.pending)) {
      throw usageError(`the rotation journal ${this.path} names a pending record outside ${this.ctx.configDir}/pending: ${j.pending}`, 'repair or remove the journal');
    }
    const entry = j.pending === undefined ? undefined : readPending(this.ctx.configDir, j.pending);
    if (entry === undefined) {
      await this.save({ pending: undefined });
      return false;
    }
    const start = performance.now();
    const record = unwanted ? { ...entry.record, unwanted: true } : entry.record;
    const keys = await tools.client.list();
    const result = await settleRecord(record, keys, tools);
    const step: StepRecord = { step: 'find-minted', status: 'done', ms: 0, name: record.sent_name };
    if (result.kind === 'not yet') {
      const { rotation: _, ...handedOver } = record;
      await rewritePending(entry, { ...handedOver, unwanted: true });
      this.warn(`the interrupted mint of key "${record.sent_name}" is not listed yet: keys commands against this service ${checkedUntil(record)} delete it if the service makes it late`);
      this.record({ ...step, ms: since(start), result: 'not listed yet' });
      await this.save({ pending: undefined });
      return false;
    }
    await removePending(entry);
    const made = result.keys;
    for (const key of made.filter((k) => k.outcome !== 'kept')) this.warn(`the interrupted mint: ${describeKeys([key], record)}`);
    const kept = made.find((key) => key.outcome === 'kept');
    const apiKey = kept && keys.find((key) => key.api_key === kept.id);
    this.record({ ...step, ms: since(start), kept: kept?.id, deleted: made.filter((k) => k.outcome === 'deleted').map((k) => k.id), unknown: made.filter((k) => k.outcome === 'unknown').map((k) => k.id) });
    if (kept?.outcome === 'kept' && apiKey) {
      await recordKeyMade(this.ctx, apiKey.api_key);
      await this.enter('stored', { new_key: apiKey, private_key_file: kept.file, pending: undefined });
      return true;
    }
    await this.save({ pending: undefined });
    return false;
  }

  private async switchProfile(): Promise<TridentError | undefined> {
    const j = this.journal;
    const { api_key: id } = this.newKey();
    if (j.owner.mode !== 'profile') {
      await this.enter('switched', {}, { step: 'switch', status: 'skipped', ms: 0, reason: 'the key came from flags or the environment: no profile to switch' });
      return undefined;
    }
    const start = performance.now();
    if (j.phase === 'stored') await this.enter('switching');
    try {
      await this.ctx.settings.store.update(j.owner.profile, { 'keys.keyId': id, 'keys.privateKeyFile': j.private_key_file });
    } catch (error) {
      return new TridentError(ExitCode.usage, `could not point profile "${j.owner.profile}" at the new key: ${(error as Error).message}`, { cause: error });
    }
    await this.enter('switched', {}, { step: 'switch', status: 'done', ms: since(start), profile: j.owner.profile, api_key: id });
    return undefined;
  }

  /** A request signed by the new key must work and list the new key. */
  private async verify(): Promise<TridentError | undefined> {
    const start = performance.now();
    const { api_key: id } = this.newKey();
    let failure: TridentError | undefined;
    try {
      const keys = await (await this.client('new')).list();
      if (!keys.some((key) => key.api_key === id)) {
        failure = new TridentError(ExitCode.unavailable, `a request signed by the new key ${id} worked, but the service does not list that key`);
      }
    } catch (error) {
      if (!(error instanceof TridentError)) throw error;
      failure = new TridentError(error.exitCode, `the new key ${id} failed verification: ${error.message}`, { status: error.status, code: error.code, cause: error });
    }
    if (failure) {
      this.record({ step: 'verify', status: 'failed', ms: since(start), api_key: id, error: failure.message });
      return failure;
    }
    await this.enter('verified', {}, { step: 'verify', status: 'done', ms: since(start), api_key: id });
    return undefined;
  }

  // ---- the application

  /** Runs one hook and records it (its exit code, never its output); a failure is returned, not thrown. */
  private async hook(step: HookStep, deployed: { api_key: string; file: string | null; pem?: string }): Promise<TridentError | undefined> {
    const j = this.journal;
    const onSpawn = (pgid: number, leaderStart: string | undefined) => this.save({ hook: { step: HOOK_STEP_NAMES[step], pgid, ...(leaderStart ? { leader_start: leaderStart } : {}) } });
    const command = step === 'verify' ? j.hooks!.verify! : j.hooks!.deploy!;
    const timeoutMs = (this.options.hookTimeoutS ?? j.hooks!.timeout_s ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
    const flag = step === 'verify' ? '--verify' : '--deploy';
    this.ctx.log.info(`rotate: running the ${flag} command (${step}, key ${deployed.api_key})`);
    const outcome = await runHook(
      { command, step, keyId: deployed.api_key, keyFile: deployed.file, pem: deployed.pem, oldKeyId: j.old_key.api_key, newKeyId: this.newKey().api_key, timeoutMs, cwd: j.hooks!.cwd },
      this.ctx.env,
      this.ctx.io.stderr,
      onSpawn,
    );
    j.hook = undefined;
    const succeeded = hookSucceeded(outcome);
    const details = { api_key: deployed.api_key, exit_code: outcome.exitCode, ...(outcome.timedOut ? { timed_out: true } : {}) };
    this.record({ step: HOOK_STEP_NAMES[step], status: succeeded ? 'done' : 'failed', ms: outcome.ms, ...details });
    if (succeeded) return undefined;
    const what = step === 'rollback' ? `the ${flag} command, run again with the old key ${deployed.api_key},` : `the ${flag} command (${step} of the new key ${deployed.api_key})`;
    return new TridentError(ExitCode.unavailable, `${what} failed: ${describeOutcome(outcome, timeoutMs)}`, {
      hint: `its output is above; ${outcome.timedOut ? 'raise --hook-timeout if it needs longer' : 'a hook must exit 0 when it succeeded'}`,
    });
  }

  private async deployNewKey(): Promise<TridentError | undefined> {
    const file = this.journal.private_key_file!;
    const failure = await this.hook('deploy', { api_key: this.newKey().api_key, file, pem: readFileSync(file, 'utf8') });
    if (!failure) await this.enter('deployed');
    return failure;
  }

  private async verifyApp(): Promise<TridentError | undefined> {
    const failure = await this.hook('verify', { api_key: this.newKey().api_key, file: this.journal.private_key_file! });
    if (!failure) await this.enter('app-verified');
    return failure;
  }

  /** The application gets the old key back; until that worked both keys stay and the journal stays. */
  private async redeployOldKey(): Promise<void> {
    const j = this.journal;
    const { api_key: oldId, private_key_file: file } = j.old_key;
    const pem = file === null ? this.ctx.env[PRIVATE_KEY_ENV] : readFileSync(file, 'utf8');
    if (!pem) throw new TridentError(ExitCode.auth, `the old key ${oldId} came from ${PRIVATE_KEY_ENV}, which is not set now: the application cannot get it back`, { hint: `set ${PRIVATE_KEY_ENV} to its PEM again` });
    const failure = await this.hook('rollback', { api_key: oldId, file, pem });
    if (!failure) return;
    const newId = this.newKey().api_key;
    const trident = j.owner.mode === 'profile' ? `profile "${j.owner.profile}" still uses the new key` : 'trident used the new key last';
    throw new TridentError(failure.exitCode, `${j.rollback!.reason}; rolling back, ${failure.message}`, {
      hint: `the application may hold the new key ${newId} or the old key ${oldId} (perhaps partly deployed): both keys are kept and valid, ${trident}; once the deploy command works, trident keys rotate --abort (or --resume) deploys the old key again and finishes the rollback`,
    });
  }

  /** 404 counts as deleted. A failure ends the rotation with both keys valid, and says so. */
  private async deleteOld(): Promise<RotationResult | undefined> {
    const j = this.journal;
    const old = j.old_key.api_key;
    const start = performance.now();
    let outcome: string;
    try {
      outcome = await (await this.client('new')).delete(old);
    } catch (error) {
      if (!(error instanceof TridentError)) throw error;
      this.record({ step: 'delete-old', status: 'failed', ms: since(start), api_key: old, error: error.message });
      const inUse = j.owner.mode === 'profile' ? `profile "${j.owner.profile}" uses the new key ${this.newKey().api_key}` : `the new key ${this.newKey().api_key} works`;
      this.warn(`the old key ${old} was not deleted (${error.message}): both keys are valid; ${inUse}; the old key's file is kept`);
      const result = await this.finish();
      const problem = new TridentError(error.exitCode, `the rotation is done but the old key ${old} could not be deleted: ${error.message}`, {
        hint: `both keys are valid; delete the old one with: trident keys delete ${old}`,
      });
      return { ...result, exitCode: error.exitCode, problem };
    }
    await this.enter('old-deleted', { old_key_deleted: true }, { step: 'delete-old', status: 'done', ms: since(start), api_key: old, result: outcome });
    return undefined;
  }

  /** Local clean-up: the old key's file goes only if trident wrote it and the old key is gone. */
  private async finish(): Promise<RotationResult> {
    const j = this.journal;
    if (j.keep_old) this.record({ step: 'delete-old', status: 'skipped', ms: 0, api_key: j.old_key.api_key, reason: '--keep-old' });
    const file = j.old_key.private_key_file;
    const start = performance.now();
    if (j.old_key_deleted && j.old_key.file_created_by_trident && file !== null) {
      await removeSecretFile(file);
      this.record({ step: 'remove-old-file', status: 'done', ms: since(start), file });
    } else {
      const reason = !j.old_key_deleted ? 'the old key was not deleted' : file === null ? `the old key came from ${PRIVATE_KEY_ENV}` : "it is not trident's own key file (<config dir>/keys/<api_key>.pem): a file elsewhere is left to you";
      this.record({ step: 'remove-old-file', status: 'skipped', ms: 0, file: file ?? undefined, reason });
    }
    await removeJournal(this.path);
    if (j.old_key_deleted) await forgetKey(this.ctx, j.old_key.api_key);
    return { outcome: 'rotated', journal: j, exitCode: ExitCode.ok };
  }

  // ---- undoing

  /**
   * Back to the old key: the profile restored, the new key deleted on the service (signed by the old key),
   * its private key files removed. `cause` is why (none: --abort). An abort ends with exit 0 once all is
   * undone, even when it finishes the rollback of a rotation that had failed.
   */
  private async rollBack(cause?: TridentError, aborting = false): Promise<RotationResult> {
    const j = this.journal;
    if (j.phase !== 'rolling-back' && j.phase !== 'rolling-back-app') {
      const from = j.phase;
      const appMayHoldNewKey = Boolean(j.hooks?.deploy) && phaseIndex(from) >= phaseIndex('deploying') && phaseIndex(from) <= phaseIndex('app-verified');
      await this.enter(appMayHoldNewKey ? 'rolling-back-app' : 'rolling-back', { rollback: { from, reason: cause?.message ?? 'aborted', exit_code: cause?.exitCode ?? ExitCode.ok } });
    }
    if (j.phase === 'rolling-back-app') {
      await this.redeployOldKey();
      await this.enter('rolling-back');
    }
    const { from, reason } = j.rollback!;
    const exitCode = j.rollback!.exit_code as ExitCode;
    if (j.owner.mode === 'profile' && phaseIndex(from) >= phaseIndex('switching')) await this.restoreProfile(j.owner.profile);
    await this.deleteNewKeys(from);
    await this.removeNewKeyFiles();
    await removeJournal(this.path);
    if (j.new_key) await forgetKey(this.ctx, j.new_key.api_key);
    if (aborting || exitCode === ExitCode.ok) return { outcome: 'aborted', journal: j, exitCode: ExitCode.ok };
    const inUse = j.owner.mode === 'profile' ? `profile "${j.owner.profile}" uses the old key ${j.old_key.api_key} again` : `the old key ${j.old_key.api_key} stays in use`;
    const app = j.steps.some((step) => step.step === 'rollback-deploy' && step.status === 'done') ? ', the application got the old key back' : '';
    const problem = new TridentError(exitCode, `${reason}; the rotation was rolled back: ${inUse}${app} and the new key was deleted`, { hint: cause?.hint });
    return { outcome: 'rolled back', journal: j, exitCode, problem };
  }

  private async restoreProfile(profile: string): Promise<void> {
    const start = performance.now();
    const before = this.journal.profile_before ?? {};
    await this.ctx.settings.store.update(profile, { 'keys.keyId': before.keyId, 'keys.privateKeyFile': before.privateKeyFile });
    this.record({ step: 'restore-profile', status: 'done', ms: since(start), profile, api_key: before.keyId });
  }

  /** The new key; if the rotation stopped while minting, whatever that mint provably made. */
  private async deleteNewKeys(from: Phase): Promise<void> {
    const j = this.journal;
    const start = performance.now();
    const client = await this.client('old');
    if (from === 'minting' && !j.new_key) {
      if (j.pending !== undefined) await this.settleInterruptedMint(this.mintTools(client), true);
      return;
    }
    const id = this.newKey().api_key;
    const result = await client.delete(id);
    this.record({ step: 'delete-new', status: 'done', ms: since(start), api_keys: [id], results: [result] });
  }

  private async removeNewKeyFiles(): Promise<void> {
    const file = this.journal.new_key ? this.journal.private_key_file : undefined;
    const removed = file !== undefined && (await removeSecretFile(file));
    this.record({ step: 'remove-new-files', status: removed ? 'done' : 'skipped', ms: 0, files: removed ? [file] : [] });
  }
}
