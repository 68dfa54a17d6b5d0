import type { Command } from 'commander';
import { examples, type Binder } from '../../command.js';
import type { Context } from '../../context.js';
import { ExitCode, TridentError, usageError } from '../../core/errors.js';
import type { GeneratedKey, KeysClient, NewKey } from '../client.js';
import { connect } from '../connection.js';
import { STDOUT, defaultKeyPath, outPath, preflightKeyTarget, storePrivateKey } from '../key-files.js';
import { addNewKeyOptions, printNewKey, type NewKeyOptions } from '../new-key.js';
import { answerLost, idsNamed, settleLostGenerate } from '../lost-answer.js';
import { checkUse, parseNewKey } from '../rules.js';
import { useKey } from '../use-key.js';
import { interruptedAfterKey } from '../outcomes.js';
import { finishBeforeInterrupt, interruptHeldBack } from '../../core/interrupts.js';
import { finishWorkIfStdoutFails, stdoutWriteError } from '../../core/stdout-failure.js';
import { recordKeyMade } from '../key-ages.js';

export type GenerateOptions = NewKeyOptions;

/** The private key could not be stored: delete the new key on the service, so that no key exists that nobody holds. */
async function undoGenerate(client: KeysClient, apiKey: string, path: string, storeError: unknown): Promise<TridentError> {
  const reason = storeError instanceof TridentError ? storeError.message : ((storeError as NodeJS.ErrnoException).code ?? (storeError as Error).message);
  const exitCode = storeError instanceof TridentError ? storeError.exitCode : ExitCode.usage;
  const stored = `could not store the private key of the new key ${apiKey} at ${path} (${reason})`;
  try {
    await client.delete(apiKey);
  } catch (deleteError) {
    return new TridentError(exitCode, `${stored}, and deleting that key on the service failed too: ${(deleteError as Error).message}`, {
      hint: `nobody holds its private key: delete it with trident keys delete ${apiKey}`,
      cause: storeError,
    });
  }
  return new TridentError(exitCode, `${stored}; the key was deleted on the service again`, {
    hint: 'fix the target (--out, --force) and generate again',
    cause: storeError,
  });
}

export async function run(ctx: Context, opts: GenerateOptions): Promise<void> {
  const key = parseNewKey(opts);
  checkUse(key, opts.use);
  if (opts.use && opts.out === STDOUT) throw usageError('--use needs the private key in a file, not on stdout (--out -)');
  const client = await connect(ctx, opts);
  preflightKeyTarget(ctx, opts.out, { force: opts.force });

  const before = await idsNamed(client, key.name);
  // From the request to the stored private key, an interrupt would leave a key nobody holds: it waits.
  const made = await finishBeforeInterrupt('making the key', () => mintAndStore(ctx, client, key, before, opts));
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

/** The service mints the key; its private half is stored (or handed to stdout), or the key is deleted again. */
async function mintAndStore(ctx: Context, client: KeysClient, key: NewKey, before: Set<string>, opts: GenerateOptions): Promise<GeneratedKey & { path: string }> {
  let generated: GeneratedKey;
  try {
    generated = await client.generate(key);
  } catch (error) {
    throw answerLost(error) ? await settleLostGenerate(client, key.name, before, error) : error;
  }
  const { apiKey, privateKeyPem } = generated;
  if (opts.out === STDOUT) {
    // The PEM must really reach the reader: a closed pipe or a full disk must not leave a key nobody holds.
    finishWorkIfStdoutFails();
    try {
      await ctx.output.writeConfirmed(privateKeyPem);
    } catch (error) {
      throw await undoGenerate(client, apiKey.api_key, 'stdout', stdoutWriteError(error as NodeJS.ErrnoException));
    }
    return { ...generated, path: STDOUT };
  }
  const path = outPath(opts.out) ?? defaultKeyPath(ctx, apiKey.api_key);
  try {
    await storePrivateKey(path, privateKeyPem, { force: opts.force });
  } catch (error) {
    throw await undoGenerate(client, apiKey.api_key, path, error);
  }
  return { ...generated, path };
}

export function register(parent: Command, bind: Binder): void {
  const command = parent
    .command('generate')
    .summary('have the service mint a new key pair')
    .description(
      'Have the service mint a new key pair. The private key, which the service shows only once, is stored (0600) before anything is printed: by default in <config dir>/keys/<api_key>.pem. If it cannot be stored, or its answer is lost on the way, the new key is deleted on the service again (keys are listed before the request to tell it apart). With --out - the PEM goes to stdout and the key id to stderr.',
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
