// The profile pointed at the new key, then a request signed by the new key: the phases between a new key that
// exists and one that is known to work. A failure is returned, not thrown: the rotation then rolls back.
import { ExitCode, TridentError } from '../../../core/errors.js';
import { since, type RotationSession } from '../session.js';

export async function switchProfile(session: RotationSession): Promise<TridentError | undefined> {
  const j = session.journal;
  const { api_key: id } = session.newKey();
  if (j.owner.mode !== 'profile') {
    const reason = 'the key came from flags or the environment: no profile to switch';
    await session.enter('switched', {}, { step: 'switch', status: 'skipped', ms: 0, reason });
    return undefined;
  }
  const start = performance.now();
  if (j.phase === 'stored') await session.enter('switching');
  try {
    await session.ctx.settings.store.update(j.owner.profile, { 'keys.keyId': id, 'keys.privateKeyFile': j.private_key_file });
  } catch (error) {
    return new TridentError(ExitCode.usage, `could not point profile "${j.owner.profile}" at the new key: ${(error as Error).message}`, {
      cause: error,
    });
  }
  await session.enter('switched', {}, { step: 'switch', status: 'done', ms: since(start), profile: j.owner.profile, api_key: id });
  return undefined;
}

/** A request signed by the new key must work and list the new key. */
export async function verifyNewKey(session: RotationSession): Promise<TridentError | undefined> {
  const start = performance.now();
  const { api_key: id } = session.newKey();
  let failure: TridentError | undefined;
  try {
    const keys = await (await session.client('new')).list();
    if (!keys.some((key) => key.api_key === id)) {
      failure = new TridentError(
        ExitCode.unavailable,
        `a request signed by the new key ${id} worked, but the service does not list that key`,
      );
    }
  } catch (error) {
    if (!(error instanceof TridentError)) throw error;
    failure = new TridentError(error.exitCode, `the new key ${id} failed verification: ${error.message}`, {
      status: error.status,
      code: error.code,
      cause: error,
    });
  }
  if (failure) {
    session.record({ step: 'verify', status: 'failed', ms: since(start), api_key: id, error: failure.message });
    return failure;
  }
  await session.enter('verified', {}, { step: 'verify', status: 'done', ms: since(start), api_key: id });
  return undefined;
}
