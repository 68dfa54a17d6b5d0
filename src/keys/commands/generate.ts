import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { ExitCode, TridentError, usageError } from '../../core/errors.js';
import { DEFAULT_SCOPES, type GeneratedKey, type KeysClient, type NewKey } from '../client.js';
import { openSettledClient, resolveConnection, type KeysConnection } from '../connection.js';
import { crashHook, type Checkpoint } from '../crash-points.js';
import { STDOUT, defaultKeyPath, outPath, preflightKeyTarget, storePrivateKey } from '../mint/key-files.js';
import { privateKeyFromPem } from '../mint/keypair.js';
import { deleteUnheldKey, type MintFailure } from '../mint/delete-unheld.js';
import { addNewKeyOptions, printNewKey, type NewKeyOptions } from '../new-key.js';
import { answerLost, idsNamed, settleLostGenerate } from '../mint/lost-answer.js';
import { preflightPending, removePending, writePending, type PendingEntry } from '../mint/pending.js';
import { checkUse, parseNewKey } from '../rules.js';
import { useKey } from '../use-key.js';
import { interruptedAfterKey } from '../mint/outcomes.js';
import { finishBeforeInterrupt, interruptHeldBack } from '../../core/term/interrupts.js';
import { finishWorkIfStdoutFails, stdoutWriteError } from '../../core/term/stdout-failure.js';
import { recordKeyMade } from '../key-ages.js';

export type GenerateOptions = NewKeyOptions;

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

export async function run(ctx: Context, opts: GenerateOptions): Promise<void> {
  const key = parseNewKey(opts);
  checkUse(key, opts.use);
  if (opts.use && opts.out === STDOUT) throw usageError('--use needs the private key in a file, not on stdout (--out -)');
  const connection = resolveConnection(ctx, opts);
  const client = await openSettledClient(ctx, connection);
  preflightKeyTarget(ctx, opts.out, { force: opts.force });
  preflightPending(ctx.configDir);

  const before = await idsNamed(client, key.name);
  const steps = { ctx, connection, client, key, before, opts, checkpoint: crashHook(ctx.env) };
  // From the request to the stored private key, an interrupt would leave a key nobody holds: it waits.
  const made = await finishBeforeInterrupt('making the key', () => mintAndStore(steps));
  const { apiKey, warning, path } = made;
  await recordKeyMade(ctx, apiKey.api_key);
  if (interruptHeldBack()) throw interruptedAfterKey(apiKey.api_key, path === STDOUT ? undefined : path);
  if (path === STDOUT) {
    if (warning) ctx.log.warn(`the keys service says: ${warning}`);
    ctx.log.info(`generated key ${apiKey.api_key} ("${apiKey.name}"); its private key went to stdout and nowhere else`);
    return;
  }
  const used = opts.use ? await useKey(ctx, apiKey.api_key, path, apiKey.scopes) : undefined;
  await printNewKey(ctx, { api_key: apiKey, private_key_file: path, ...(warning ? { warning } : {}), ...(used ? { used } : {}) });
}

interface MintSteps {
  ctx: Context;
  connection: KeysConnection;
  client: KeysClient;
  key: NewKey;
  before: Set<string>;
  opts: GenerateOptions;
  checkpoint: Checkpoint;
}

/**
 * The service mints the key; its private half is stored (or handed to stdout), or the key is deleted again. A
 * pending record covers the whole of it, so that a process killed anywhere leaves something to settle.
 */
async function mintAndStore({ ctx, connection, client, key, before, opts, checkpoint }: MintSteps): Promise<GeneratedKey & { path: string }> {
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

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('generate')
    .summary('have the service mint a new key pair')
    .description(
      'Have the service mint a new key pair. The private key, which the service shows only once, is checked to be a usable key and stored (0600) before anything is printed: by default in <config dir>/keys/<api_key>.pem. If it cannot be stored or is no key, the new key is deleted on the service again (exit 8). A pending record (<config dir>/pending/) is written before the request and removed once the key is stored: if the answer is lost or is a 5xx, or trident is killed meanwhile, the request is not repeated and the record is settled (now, or by the next keys command against the service): the new key, which nobody holds, is deleted if it is provably this one (the only new key of that name, with the scopes asked for), otherwise every candidate is reported. With --out - the PEM goes to stdout and the key id to stderr.',
    )
    .option('--out <file|->', 'where to store the private key ("-" = stdout); default <config dir>/keys/<api_key>.pem');
  examples(addNewKeyOptions(command).action(bind(run)), [
    'trident keys generate --name ci-deploy',
    'trident keys generate --name reader --scopes read --out ./reader.pem -o json',
    'trident keys generate --name laptop --use',
    'trident keys generate --name desk-3 --subaccount 3 --out ./desk-3.pem',
    'trident keys generate --name once --out - > key.pem',
  ]);
}
