// The one lifecycle of every key trident asks the service to make — `keys create`, `keys generate` and each
// mint of a rotation: a pending record first (pending.ts), the request under a name tagged for it (tag.ts),
// the private half kept (stored, moved from its staging place, or delivered on stdout) before anything else,
// then the record goes. A lost answer is settled at once (lost-answer.ts); a process killed anywhere leaves
// the record for the next keys command, or for the rotation's --resume / --abort.
import { ExitCode, TridentError } from '../../core/errors.js';
import { fileSystemFailure } from '../../core/files/file-system-failure.js';
import { DEFAULT_SCOPES, type ApiKey, type CreatedKey, type NewKey } from '../client.js';
import { deleteUnheldKey, type MintFailure } from './delete-unheld.js';
import { STDOUT, stagePrivateKey, type StagedKey } from './key-files.js';
import { privateKeyFromPem, type KeyPairPem } from './keypair.js';
import { answerLost, settleLostAnswer } from './lost-answer.js';
import { removePending, writePending, type PendingEntry } from './pending.js';
import type { MintTools } from './settle.js';
import { taggedName } from './tag.js';

export interface MintRequest {
  key: NewKey;
  /** A path, "-" (stdout: generate only), or null for <config dir>/keys/<api_key>.pem. */
  target: string | null;
  force?: boolean;
  /** create: a pair made here, its private half staged in `stagingDir` until the key has an id. */
  pair?: { pem: KeyPairPem; stagingDir: string };
  /** create --public-key: the user's own key; sent under the name asked for. */
  upload?: { publicKeyPem: string };
  /** The journal of the rotation this mint is a step of. */
  rotation?: string;
}

export interface MintedKey {
  apiKey: ApiKey;
  warning?: string;
  /** Where the private half is: a path, "-" for stdout, null for an upload (the user's own). */
  file: string | null;
}

export interface MintSteps {
  /** The record is written and the request not sent yet (a rotation points its journal at the record). */
  recorded?(entry: PendingEntry): Promise<void>;
  /** The private half is in its place; the record still exists and goes right after. */
  placed?(minted: MintedKey): Promise<void>;
  /** --out -: hands the PEM to the reader; throws if it did not arrive. */
  deliver?(pem: string): Promise<void>;
}

const reason = (error: unknown) =>
  error instanceof TridentError ? error.message : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);

function storeFailure(apiKey: string, path: string, error: unknown): MintFailure {
  const environment = fileSystemFailure(error, path);
  if (environment)
    return {
      exitCode: environment.exitCode,
      message: `could not store the private key of the new key ${apiKey}: ${environment.message}`,
      hint: environment.hint,
      cause: error,
    };
  return {
    exitCode: error instanceof TridentError ? error.exitCode : ExitCode.usage,
    message: `could not store the private key of the new key ${apiKey} at ${path} (${reason(error)})`,
    hint: 'fix the target (--out, --force, free space) and run the command again',
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
      hint: 'no profile was changed: run the command again, and tell the service if it happens again',
      cause: error,
    };
  }
}

function send(tools: MintTools, request: MintRequest, name: string): Promise<CreatedKey & { privateKeyPem?: string }> {
  const key = { ...request.key, name };
  if (request.upload) return tools.client.create({ ...key, publicKeyPem: request.upload.publicKeyPem });
  if (request.pair) return tools.client.create({ ...key, publicKeyPem: request.pair.pem.publicKeyPem });
  return tools.client.generate(key);
}

/** A generated key's private half: checked, then stored or delivered; otherwise the key is deleted again. */
async function keepGenerated(
  tools: MintTools,
  pending: PendingEntry,
  apiKey: ApiKey,
  pem: string,
  file: string,
  request: MintRequest,
  steps: MintSteps,
): Promise<void> {
  const id = apiKey.api_key;
  const undo = (failure: MintFailure) =>
    deleteUnheldKey(tools.client, id, failure, {
      forget: () => removePending(pending),
      stillThereHint: `nobody holds its private key: delete it with trident keys delete ${id}`,
    });
  const broken = brokenKey(id, pem);
  if (broken) throw await undo(broken);
  try {
    if (file === STDOUT) await steps.deliver!(pem);
    else await tools.places.write(file, pem, { force: request.force });
  } catch (error) {
    throw await undo(storeFailure(id, file === STDOUT ? 'stdout' : file, error));
  }
}

async function placeStaged(
  staged: StagedKey,
  apiKey: ApiKey,
  file: string,
  force: boolean | undefined,
  pending: PendingEntry,
): Promise<void> {
  try {
    await staged.place(file, { force });
  } catch (error) {
    // The key is held all the same, by the staged file.
    await removePending(pending);
    throw new TridentError(
      ExitCode.usage,
      `key ${apiKey.api_key} was created, but its private key could not be moved to ${file} (${reason(error)}); it is at ${staged.path}`,
      {
        hint: `move it yourself: mv ${staged.path} ${file}`,
        cause: error,
      },
    );
  }
}

export async function mintKey(tools: MintTools, request: MintRequest, steps: MintSteps = {}): Promise<MintedKey> {
  const verb = request.pair || request.upload ? 'create' : 'generate';
  const sentName = request.upload ? request.key.name : taggedName(request.key.name);
  const staged = request.pair ? await stagePrivateKey(request.pair.stagingDir, request.pair.pem.privateKeyPem, tools.places) : undefined;
  let pending: PendingEntry;
  try {
    pending = await writePending(
      tools.configDir,
      {
        verb,
        name: request.key.name,
        sent_name: sentName,
        url: tools.url,
        scopes: request.key.scopes ?? DEFAULT_SCOPES,
        ...(staged ? { staged_file: staged.path } : {}),
        target_file: request.target,
        ...(request.target === null && tools.defaultsToKeyring() ? { keyring: true } : {}),
        force: Boolean(request.force),
        ...(request.upload ? { uploaded: true } : {}),
        ...(request.rotation !== undefined ? { rotation: request.rotation } : {}),
      },
      tools.now(),
    );
  } catch (error) {
    await staged?.discard();
    throw error;
  }
  // The request made nothing (never sent, or refused): its record and staged private half go.
  const forget = async () => {
    await staged?.discard();
    await removePending(pending);
  };
  try {
    await steps.recorded?.(pending);
  } catch (error) {
    await forget();
    throw error;
  }
  await tools.checkpoint('pending');

  let answer: CreatedKey & { privateKeyPem?: string };
  let settledFile: string | undefined;
  try {
    answer = await send(tools, request, sentName);
  } catch (error) {
    if (!answerLost(error)) {
      await forget();
      throw error;
    }
    // Only a create can be found whole: its private half never left this machine.
    const found = await settleLostAnswer(tools, pending, error);
    tools.warn(
      `the answer to the create request was lost, but key ${found.apiKey.api_key} named "${sentName}" accepts the new private key: it is this one`,
    );
    answer = { apiKey: found.apiKey };
    settledFile = found.file;
  }
  await tools.checkpoint('answered');
  const { apiKey } = answer;
  const file = request.upload ? null : (settledFile ?? request.target ?? tools.keyPath(apiKey.api_key));
  if (answer.privateKeyPem !== undefined) await keepGenerated(tools, pending, apiKey, answer.privateKeyPem, file!, request, steps);
  else if (staged && settledFile === undefined) await placeStaged(staged, apiKey, file!, request.force, pending);
  const minted: MintedKey = { apiKey, ...(answer.warning ? { warning: answer.warning } : {}), file };
  // Nothing could prove later that a reader of stdout has the key: its record goes as soon as it was delivered.
  if (file === STDOUT) await removePending(pending);
  await steps.placed?.(minted);
  await tools.checkpoint('stored');
  await removePending(pending);
  return minted;
}
