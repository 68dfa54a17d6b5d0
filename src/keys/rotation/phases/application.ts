// The application's phases, entered only with --deploy or --verify: the new key deployed and the application
// checked with it, and on the way back the old key deployed again. Each runs one hook and records it (its exit
// code, never its output).
import { credentialPlaces } from '../../../core/credentials/places.js';
import { isKeyringReference } from '../../../core/credentials/reference.js';
import { ExitCode, TridentError } from '../../../core/errors.js';
import { PRIVATE_KEY_ENV } from '../../connection.js';
import { DEFAULT_HOOK_TIMEOUT_S, describeOutcome, hookSucceeded, runHook, type HookStep } from '../hooks.js';
import type { RotationSession } from '../session.js';

const HOOK_STEP_NAMES: Record<HookStep, string> = { deploy: 'deploy', verify: 'verify-app', rollback: 'rollback-deploy' };

interface DeployedKey {
  api_key: string;
  file: string | null;
  pem?: string;
}

export async function deployNewKey(session: RotationSession): Promise<TridentError | undefined> {
  const file = session.journal.private_key_file!;
  const pem = credentialPlaces(session.ctx.env).read(file);
  const failure = await hook(session, 'deploy', { api_key: session.newKey().api_key, file, pem });
  if (!failure) await session.enter('deployed');
  return failure;
}

export async function verifyApp(session: RotationSession): Promise<TridentError | undefined> {
  const failure = await hook(session, 'verify', { api_key: session.newKey().api_key, file: session.journal.private_key_file! });
  if (!failure) await session.enter('app-verified');
  return failure;
}

/** The application gets the old key back; until that worked both keys stay and the journal stays. */
export async function redeployOldKey(session: RotationSession): Promise<void> {
  const j = session.journal;
  const { api_key: oldId, private_key_file: file } = j.old_key;
  const pem = file === null ? session.ctx.env[PRIVATE_KEY_ENV] : credentialPlaces(session.ctx.env).read(file);
  if (!pem) {
    const unset = `the old key ${oldId} came from ${PRIVATE_KEY_ENV}, which is not set now: the application cannot get it back`;
    throw new TridentError(ExitCode.auth, unset, { hint: `set ${PRIVATE_KEY_ENV} to its PEM again` });
  }
  const failure = await hook(session, 'rollback', { api_key: oldId, file, pem });
  if (!failure) return;
  const newId = session.newKey().api_key;
  const trident = j.owner.mode === 'profile' ? `profile "${j.owner.profile}" still uses the new key` : 'trident used the new key last';
  throw new TridentError(failure.exitCode, `${j.rollback!.reason}; rolling back, ${failure.message}`, {
    hint: `the application may hold the new key ${newId} or the old key ${oldId} (perhaps partly deployed): both keys are kept and valid, ${trident}; once the deploy command works, trident keys rotate --abort (or --resume) deploys the old key again and finishes the rollback`,
  });
}

/** Runs one hook and records it; a failure is returned, not thrown. */
async function hook(session: RotationSession, step: HookStep, deployed: DeployedKey): Promise<TridentError | undefined> {
  const { ctx } = session;
  const j = session.journal;
  const onSpawn = (pgid: number, leaderStart: string | undefined) =>
    session.save({ hook: { step: HOOK_STEP_NAMES[step], pgid, ...(leaderStart ? { leader_start: leaderStart } : {}) } });
  const command = step === 'verify' ? j.hooks!.verify! : j.hooks!.deploy!;
  const timeoutMs = (session.options.hookTimeoutS ?? j.hooks!.timeout_s ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
  const flag = step === 'verify' ? '--verify' : '--deploy';
  ctx.log.info(`rotate: running the ${flag} command (${step}, key ${deployed.api_key})`);
  // A key in the keyring has no file to name: the hook gets its PEM on stdin only.
  const keyFile = deployed.file !== null && isKeyringReference(deployed.file) ? null : deployed.file;
  const key = { keyId: deployed.api_key, keyFile, pem: deployed.pem };
  const both = { oldKeyId: j.old_key.api_key, newKeyId: session.newKey().api_key };
  const outcome = await runHook({ command, step, ...key, ...both, timeoutMs, cwd: j.hooks!.cwd }, ctx.env, ctx.io.stderr, onSpawn);
  j.hook = undefined;
  const succeeded = hookSucceeded(outcome);
  const details = { api_key: deployed.api_key, exit_code: outcome.exitCode, ...(outcome.timedOut ? { timed_out: true } : {}) };
  session.record({ step: HOOK_STEP_NAMES[step], status: succeeded ? 'done' : 'failed', ms: outcome.ms, ...details });
  if (succeeded) return undefined;
  const what =
    step === 'rollback'
      ? `the ${flag} command, run again with the old key ${deployed.api_key},`
      : `the ${flag} command (${step} of the new key ${deployed.api_key})`;
  // A failed deploy or verify is rolled back, and the rollback's exit code is its cause's: 10 tells a pipeline
  // "the application refused the new key, the old one is in use" apart from a service that is down (8). A failed
  // rollback deploy leaves both keys and the application's state unknown: that is no clean rollback.
  const code = step === 'rollback' ? ExitCode.unavailable : ExitCode.rolledBack;
  return new TridentError(code, `${what} failed: ${describeOutcome(outcome, timeoutMs)}`, {
    hint: `its output is above; ${outcome.timedOut ? 'raise --hook-timeout if it needs longer' : 'a hook must exit 0 when it succeeded'}`,
  });
}
