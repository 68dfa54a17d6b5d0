// The rotation state machine: make a new key, switch to it, confirm it works, and only then delete the old
// one. Every step is journaled before and after it runs (journal.ts). run() and resume() go forward
// from the journaled phase; abort() undoes what can still be undone. Each step can be repeated, so a process
// killed anywhere, even inside resume or abort, leaves a journal that another resume or abort can finish.
// The phases themselves are in phases/; this file only chooses the next one.
import { existsSync } from 'node:fs';
import type { Context } from '../../context.js';
import { TridentError } from '../../core/errors.js';
import { isInConfigDir } from '../../core/files/config-files.js';
import { fileSystemFailure } from '../../core/files/file-system-failure.js';
import { removeSecretFile } from '../../core/files/secret-file.js';
import type { RotationDeps } from './deps.js';
import { endSurvivingHook } from './hooks.js';
import type { Journal, Phase } from './journal.js';
import { deployNewKey, verifyApp } from './phases/application.js';
import { mintNewKey } from './phases/mint.js';
import { deleteOldKey, finishRotation } from './phases/retire-old-key.js';
import { rollBack } from './phases/roll-back.js';
import { switchProfile, verifyNewKey } from './phases/switch-to-new-key.js';
import { RotationSession, type RotationOptions, type RotationResult } from './session.js';

export type { RotationResult } from './session.js';

export class Rotation {
  private readonly session: RotationSession;

  constructor(
    ctx: Context,
    readonly path: string,
    readonly journal: Journal,
    deps: RotationDeps,
    options: RotationOptions,
  ) {
    this.session = new RotationSession(ctx, path, journal, deps, options);
  }

  /** A fresh rotation, its journal just created. */
  run(): Promise<RotationResult> {
    return this.guard(() => this.forward());
  }

  resume(): Promise<RotationResult> {
    this.session.record({ step: 'resume', status: 'done', ms: 0, phase: this.journal.phase });
    return this.guard(async () => {
      await this.tidyInterruptedRun();
      return this.forward();
    });
  }

  /** Undoes the rotation; once the old key's delete may have been sent, finishes it instead. */
  abort(): Promise<RotationResult> {
    this.session.record({ step: 'abort', status: 'done', ms: 0, phase: this.journal.phase });
    return this.guard(async () => {
      await this.tidyInterruptedRun();
      const { phase } = this.journal;
      if (phase === 'deleting-old' || phase === 'old-deleted') {
        this.session.warn('the delete of the old key had been sent already, so the rotation cannot be undone: finishing it instead');
        return this.forward();
      }
      return rollBack(this.session, undefined, true);
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
    this.session.ctx.interrupts.setHint(() => this.pausedHint());
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
      this.session.ctx.interrupts.setHint(undefined);
    }
  }

  /**
   * Before --resume or --abort goes on: a hook that outlived the trident that started it is ended, and a mint's
   * record left behind once the journal knew the key (killed between the two writes) goes.
   */
  private async tidyInterruptedRun(): Promise<void> {
    const { phase, pending } = this.journal;
    const leftBehind = phase !== 'minting' && pending !== undefined && this.journal.new_key;
    if (leftBehind && isInConfigDir(this.session.ctx.configDir, 'pending', pending)) {
      await removeSecretFile(pending);
      await this.session.save({ pending: undefined });
    }
    const hook = this.journal.hook;
    if (!hook) return;
    if ((await endSurvivingHook(hook)) === 'ended') {
      const which = `the ${hook.step} command of the interrupted run (process group ${hook.pgid})`;
      this.session.warn(`${which} was still running: it was ended before going on`);
    }
    await this.session.save({ hook: undefined });
  }

  private async forward(): Promise<RotationResult> {
    const session = this.session;
    for (;;) {
      let failure: TridentError | undefined;
      switch (this.journal.phase) {
        case 'minting':
          await mintNewKey(session);
          break;
        case 'stored':
        case 'switching':
          failure = await switchProfile(session);
          break;
        case 'switched':
          failure = await verifyNewKey(session);
          break;
        case 'verified':
        case 'deployed':
        case 'app-verified': {
          const next = this.nextAfter(this.journal.phase);
          if (next === 'finish') return finishRotation(session);
          await session.enter(next);
          break;
        }
        case 'deploying':
          failure = await deployNewKey(session);
          break;
        case 'verifying-app':
          failure = await verifyApp(session);
          break;
        case 'deleting-old': {
          const failed = await deleteOldKey(session);
          if (failed) return failed;
          break;
        }
        case 'old-deleted':
          return finishRotation(session);
        case 'rolling-back-app':
        case 'rolling-back':
          return rollBack(session);
      }
      if (failure) return rollBack(session, failure);
    }
  }

  /** After the new key's check, the deploy and the application's verify: the next hook, or on to the old key. */
  private nextAfter(phase: 'verified' | 'deployed' | 'app-verified'): Phase | 'finish' {
    const hooks = this.journal.hooks;
    if (phase === 'verified' && hooks?.deploy) return 'deploying';
    if (phase !== 'app-verified' && hooks?.verify) return 'verifying-app';
    return this.journal.keep_old ? 'finish' : 'deleting-old';
  }
}
