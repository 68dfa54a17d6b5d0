// The rotation state machine (spec rule 5: make a new key, switch to it, confirm it works, delete the old
// one). Every step is journaled before and after it runs (journal.ts). run() and resume() go forward
// from the journaled phase; abort() undoes what can still be undone. Each step can be repeated, so a process
// killed anywhere, even inside resume or abort, leaves a journal that another resume or abort can finish.
import { createPublicKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Context } from '../../context.js';
import { ExitCode, TridentError } from '../../core/errors.js';
import { moveSecretFile, removeSecretFile } from '../../core/files/secret-file.js';
import type { ApiKey, CreatedKey, GeneratedKey, NewKey } from '../client.js';
import { PRIVATE_KEY_ENV, signerFromFile } from '../connection.js';
import { deleteUnheldKey } from '../mint/delete-unheld.js';
import { defaultKeyPath, storePrivateKey } from '../mint/key-files.js';
import { privateKeyFromPem } from '../mint/keypair.js';
import { forgetKey, recordKeyMade } from '../key-ages.js';
import { isUnknownOutcome } from '../mint/outcomes.js';
import type { KeyService, RotationDeps } from './deps.js';
import { PHASES, removeJournal, saveJournal, type Journal, type Phase, type StepRecord } from './journal.js';
import { DEFAULT_HOOK_TIMEOUT_S, describeOutcome, hookSucceeded, runHook, type HookStep } from './hooks.js';
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
    return this.guard(() => this.forward());
  }

  /** Undoes the rotation; once the old key's delete may have been sent, finishes it instead. */
  abort(): Promise<RotationResult> {
    this.record({ step: 'abort', status: 'done', ms: 0, phase: this.journal.phase });
    return this.guard(async () => {
      const { phase } = this.journal;
      if (phase === 'deleting-old' || phase === 'old-deleted') {
        this.warn('the delete of the old key had been sent already, so the rotation cannot be undone: finishing it instead');
        return this.forward();
      }
      return this.rollBack(undefined, true);
    });
  }

  /** An error that leaves the journal behind says how to go on. */
  private async guard(work: () => Promise<RotationResult>): Promise<RotationResult> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof TridentError) || !existsSync(this.path)) throw error;
      const how =
        this.journal.phase === 'rolling-back' || this.journal.phase === 'rolling-back-app'
          ? 'trident keys rotate --abort (or --resume) finishes rolling it back'
          : 'trident keys rotate --resume finishes it, trident keys rotate --abort undoes it';
      throw new TridentError(error.exitCode, error.message, {
        hint: [error.hint, `the rotation is paused at step "${this.journal.phase}" (journal ${this.path}): ${how}`].filter(Boolean).join('; '),
        status: error.status,
        code: error.code,
        cause: error,
      });
    }
  }

  private async forward(): Promise<RotationResult> {
    for (;;) {
      let failure: TridentError | undefined;
      switch (this.journal.phase) {
        case 'minting':
          await this.mint();
          break;
        case 'minted':
          failure = await this.store();
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

  private async save(changes: Partial<Journal> = {}, step?: StepRecord): Promise<void> {
    Object.assign(this.journal, changes, { updated_at: this.ctx.now().toISOString() });
    if (step) this.record(step);
    await saveJournal(this.path, this.journal);
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

  /** The new private key's final place, and whether it is still staged, already there, or both (a move cut short). */
  private placement(): { final: string; staged: boolean; placed: boolean } {
    const j = this.journal;
    const final = j.private_key_file ?? j.target_file ?? defaultKeyPath(this.ctx, this.newKey().api_key);
    const staged = existsSync(j.staged_file);
    const placed = existsSync(final) && (!staged || readFileSync(final).equals(readFileSync(j.staged_file)));
    return { final, staged, placed };
  }

  // ---- forward steps

  private async mint(): Promise<void> {
    const j = this.journal;
    if (this.options.resumed) {
      const kept = await this.findInterruptedMint();
      if (kept) return this.enter('minted', { new_key: kept });
    }
    const start = performance.now();
    const client = await this.client('old');
    const key: NewKey = {
      name: j.new_name,
      ...(j.old_key.scopes.length > 0 ? { scopes: j.old_key.scopes } : {}),
      ...(j.old_key.subaccount !== null ? { subaccount: j.old_key.subaccount } : {}),
    };
    const publicKeyPem = j.method === 'local' ? await this.stagedPublicKey() : undefined;
    let created: CreatedKey;
    let generated: GeneratedKey | undefined;
    try {
      created = publicKeyPem === undefined ? (generated = await client.generate(key)) : await client.create({ ...key, publicKeyPem });
    } catch (error) {
      throw await this.mintFailed(error);
    }
    if (generated) {
      await this.deps.checkpoint('generated');
      await this.stageGenerated(client, generated);
    }
    if (created.warning) this.warn(`the keys service says: ${created.warning}`);
    const { api_key: id, name } = created.apiKey;
    await recordKeyMade(this.ctx, id);
    await this.enter('minted', { new_key: created.apiKey }, { step: 'mint', status: 'done', ms: since(start), method: j.method, api_key: id, name });
  }

  /** --local: the pair is made and its private half staged (0600) before the upload, so a found key can be kept. */
  private async stagedPublicKey(): Promise<string> {
    const { staged_file: staged } = this.journal;
    if (existsSync(staged)) {
      const privateKey = privateKeyFromPem(readFileSync(staged, 'utf8'), `staged private key ${staged}`);
      return createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    }
    const pair = await this.deps.generatePair();
    await storePrivateKey(staged, pair.privateKeyPem);
    return pair.publicKeyPem;
  }

  /** Generate: the answer holds the only copy of the private key; it goes to disk before anything else. */
  private async stageGenerated(client: KeyService, generated: GeneratedKey): Promise<void> {
    const id = generated.apiKey.api_key;
    try {
      await storePrivateKey(this.journal.staged_file, generated.privateKeyPem);
    } catch (error) {
      const stored = `could not store the private key of the new key ${id} at ${this.journal.staged_file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
      throw await deleteUnheldKey(client, id, { exitCode: ExitCode.usage, message: stored, cause: error }, { forget: () => removeJournal(this.path), note: ' and nothing changed' });
    }
  }

  private async mintFailed(error: unknown): Promise<unknown> {
    if (!(error instanceof TridentError)) return error;
    if (error.status !== undefined && error.status >= 400 && error.status < 500) {
      // Refused: no key was made, so there is nothing to finish or to undo.
      await removeSecretFile(this.journal.staged_file);
      await removeJournal(this.path);
      return error;
    }
    const verb = this.journal.method === 'local' ? 'create' : 'generate';
    const what = isUnknownOutcome(error) ? 'outcome unknown: ' : '';
    return new TridentError(error.exitCode, `${what}the ${verb} request for the new key "${this.journal.new_name}" failed: ${error.message}`, {
      hint: 'a key it may have made is found by its name',
      status: error.status,
      code: error.code,
      cause: error,
    });
  }

  /**
   * After a crash while minting: the key may exist. It is kept if its private half was staged (written
   * before the upload with --local, right after the answer with generate); otherwise nobody holds it and
   * it is deleted.
   */
  private async findInterruptedMint(): Promise<ApiKey | undefined> {
    const j = this.journal;
    const start = performance.now();
    const client = await this.client('old');
    const found = (await client.list()).filter((key) => key.name === j.new_name);
    const staged = existsSync(j.staged_file);
    const kept = staged ? found.at(-1) : undefined;
    const orphans = found.filter((key) => key !== kept);
    for (const orphan of orphans) {
      await client.delete(orphan.api_key);
      this.warn(`deleted key ${orphan.api_key} ("${orphan.name}"): the interrupted rotation made it, but nobody holds its private key`);
    }
    if (!kept && staged && j.method === 'generate') await removeSecretFile(j.staged_file);
    this.record({ step: 'find-minted', status: 'done', ms: since(start), name: j.new_name, kept: kept?.api_key, deleted: orphans.map((key) => key.api_key) });
    return kept;
  }

  private async store(): Promise<TridentError | undefined> {
    const j = this.journal;
    const start = performance.now();
    const { final, staged, placed } = this.placement();
    try {
      if (staged && placed) await removeSecretFile(j.staged_file);
      else if (staged) await moveSecretFile(j.staged_file, final);
      else if (!placed) return new TridentError(ExitCode.usage, `the private key of the new key ${this.newKey().api_key} is gone: neither ${j.staged_file} nor ${final} exists`);
    } catch (error) {
      const reason = error instanceof TridentError ? error.message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
      return new TridentError(error instanceof TridentError ? error.exitCode : ExitCode.usage, `could not move the new private key to ${final}: ${reason}`, { cause: error });
    }
    await this.enter('stored', { private_key_file: final }, { step: 'store', status: 'done', ms: since(start), file: final });
    return undefined;
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
    const command = step === 'verify' ? j.hooks!.verify! : j.hooks!.deploy!;
    const timeoutMs = (this.options.hookTimeoutS ?? j.hooks!.timeout_s ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
    const flag = step === 'verify' ? '--verify' : '--deploy';
    this.ctx.log.info(`rotate: running the ${flag} command (${step}, key ${deployed.api_key})`);
    const outcome = await runHook(
      { command, step, keyId: deployed.api_key, keyFile: deployed.file, pem: deployed.pem, oldKeyId: j.old_key.api_key, newKeyId: this.newKey().api_key, timeoutMs, cwd: j.hooks!.cwd },
      this.ctx.env,
      this.ctx.io.stderr,
    );
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
    await removeSecretFile(j.staged_file);
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

  /** The new key, or, if the crash came while minting, every key with the rotation's name. */
  private async deleteNewKeys(from: Phase): Promise<void> {
    const j = this.journal;
    const start = performance.now();
    const client = await this.client('old');
    const ids = from === 'minting' ? (await client.list()).filter((key) => key.name === j.new_name).map((key) => key.api_key) : [this.newKey().api_key];
    const results: string[] = [];
    for (const id of ids) results.push(await client.delete(id));
    this.record({ step: 'delete-new', status: ids.length > 0 ? 'done' : 'skipped', ms: since(start), api_keys: ids, results });
  }

  private async removeNewKeyFiles(): Promise<void> {
    const j = this.journal;
    const removed: string[] = [];
    if (j.new_key) {
      const { final, placed } = this.placement();
      if (placed && (await removeSecretFile(final))) removed.push(final);
    }
    if (await removeSecretFile(j.staged_file)) removed.push(j.staged_file);
    this.record({ step: 'remove-new-files', status: removed.length > 0 ? 'done' : 'skipped', ms: 0, files: removed });
  }
}
