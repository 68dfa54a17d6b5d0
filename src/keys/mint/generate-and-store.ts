// `keys generate`: the service makes the pair and its answer holds the only copy of the private half. It is
// checked, then stored (or handed to stdout) before anything else, or the key is deleted again.
import type { Context } from '../../context.js';
import { ExitCode, TridentError } from '../../core/errors.js';
import { finishWorkIfStdoutFails, stdoutWriteError } from '../../core/term/stdout-failure.js';
import { DEFAULT_SCOPES, type GeneratedKey, type KeysClient, type NewKey } from '../client.js';
import type { KeysConnection } from '../connection.js';
import type { Checkpoint } from '../crash-points.js';
import { deleteUnheldKey, type MintFailure } from './delete-unheld.js';
import { STDOUT, defaultKeyPath, outPath, storePrivateKey } from './key-files.js';
import { privateKeyFromPem } from './keypair.js';
import { answerLost, settleLostGenerate } from './lost-answer.js';
import { removePending, writePending, type PendingEntry } from './pending.js';

function storeFailure(apiKey: string, path: string, error: unknown): MintFailure {
  const reason = error instanceof TridentError ? error.message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
  return {
    exitCode: error instanceof TridentError ? error.exitCode : ExitCode.usage,
    message: `could not store the private key of the new key ${apiKey} at ${path} (${reason})`,
    hint: 'fix the target (--out, --force) and generate again',
    cause: error,
  };
}

/** A private key in an answer is parsed before it is stored or used: a broken one is no success (exit 8). */
function brokenKey(apiKey: string, pem: string): MintFailure | undefined {
  try {
    privateKeyFromPem(pem, 'the private key in the answer');
    return undefined;
  } catch (error) {
    return {
      exitCode: ExitCode.unavailable,
      message: `the keys service sent key ${apiKey} with a private key that is not usable (${(error as Error).message}); nothing was stored`,
      hint: 'no profile was changed: generate again, and tell the service if it happens again',
      cause: error,
    };
  }
}

/**
 * Deletes the new key on the service again, so that no key exists that nobody holds. Its pending record goes
 * only once the key is gone; otherwise the next keys command against the service deletes it.
 */
function undoGenerate(client: KeysClient, pending: PendingEntry, apiKey: string, failure: MintFailure): Promise<TridentError> {
  return deleteUnheldKey(client, apiKey, failure, {
    forget: () => removePending(pending),
    stillThereHint: `nobody holds its private key: delete it with trident keys delete ${apiKey}`,
  });
}

export interface MintSteps {
  ctx: Context;
  connection: KeysConnection;
  client: KeysClient;
  key: NewKey;
  before: Set<string>;
  opts: { out?: string; force?: boolean };
  checkpoint: Checkpoint;
}

/**
 * The service mints the key; its private half is stored (or handed to stdout), or the key is deleted again. A
 * pending record covers the whole of it, so that a process killed anywhere leaves something to settle.
 */
export async function mintAndStore({ ctx, connection, client, key, before, opts, checkpoint }: MintSteps): Promise<GeneratedKey & { path: string }> {
  const target = opts.out === STDOUT ? STDOUT : (outPath(opts.out) ?? null);
  const pending = await writePending(
    ctx.configDir,
    { verb: 'generate', name: key.name, url: connection.baseUrl.href, before: [...before], scopes: key.scopes ?? DEFAULT_SCOPES, target_file: target, force: Boolean(opts.force) },
    ctx.now(),
  );
  await checkpoint('pending');
  let generated: GeneratedKey;
  try {
    generated = await client.generate(key);
  } catch (error) {
    if (answerLost(error)) throw await settleLostGenerate(ctx, connection, client, pending, error);
    await removePending(pending);
    throw error;
  }
  await checkpoint('answered');
  const { apiKey, privateKeyPem } = generated;
  const path = target ?? defaultKeyPath(ctx, apiKey.api_key);
  const broken = brokenKey(apiKey.api_key, privateKeyPem);
  if (broken) throw await undoGenerate(client, pending, apiKey.api_key, broken);
  if (path === STDOUT) {
    // The PEM must really reach the reader: a closed pipe or a full disk must not leave a key nobody holds.
    finishWorkIfStdoutFails();
    try {
      await ctx.output.writeConfirmed(privateKeyPem);
    } catch (error) {
      throw await undoGenerate(client, pending, apiKey.api_key, storeFailure(apiKey.api_key, 'stdout', stdoutWriteError(error as NodeJS.ErrnoException)));
    }
    // Nothing could prove later that the reader has the key: the record goes as soon as it was delivered.
    await removePending(pending);
    await checkpoint('stored');
    return { ...generated, path: STDOUT };
  }
  try {
    await storePrivateKey(path, privateKeyPem, { force: opts.force });
  } catch (error) {
    throw await undoGenerate(client, pending, apiKey.api_key, storeFailure(apiKey.api_key, path, error));
  }
  // Killed here, the record is settled by signing with the stored key: the key is kept.
  await checkpoint('stored');
  await removePending(pending);
  return { ...generated, path };
}
