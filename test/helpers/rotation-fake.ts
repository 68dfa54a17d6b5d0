// A key service in memory for the rotation's in-process tests: it checks that a request is signed by the private
// half of a listed key (Ed25519 pairs, fast to make), and can be told to fail an operation before or after
// carrying it out. Plus a Context per "process" over one config dir, the rotation's wiring around both, and a
// rotation started or resumed in it.
import { createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../src/context.js';
import { ExitCode, TridentError } from '../../src/core/errors.js';
import type { ApiKey, NewKey } from '../../src/keys/client.js';
import type { KeyPairPem } from '../../src/keys/mint/keypair.js';
import type { KeyService, RotationDeps } from '../../src/keys/rotation/deps.js';
import { Rotation, type RotationResult } from '../../src/keys/rotation/machine.js';
import { beginRotation, findRotation, planRotation, type RotateOptions } from '../../src/keys/rotation/start.js';
import type { Signer } from '../../src/keys/signing.js';
import { testContext } from './context.js';
import { untagged } from '../../src/keys/mint/tag.js';

export function ed25519Pair(): KeyPairPem {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const spki = (key: KeyObject) => createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();

type Operation = 'list' | 'generate' | 'create' | 'delete';
/** `after`: the operation is carried out, then its answer is lost (outcome unknown). */
export interface FakeFailure {
  operation: Operation;
  error: TridentError;
  after?: boolean;
  times?: number;
  /** Only requests signed by this key. */
  signer?: string;
}

export const unknownOutcome = () =>
  new TridentError(ExitCode.unavailable, 'connection to keys.test failed: other side closed', { code: 'UNKNOWN_OUTCOME' });
export const statusError = (status: number, exitCode: ExitCode) =>
  new TridentError(exitCode, `keys service answered ${status}: injected`, { status });

export class FakeKeyService {
  readonly keys = new Map<string, { record: ApiKey; publicKeyPem: string }>();
  readonly rejected = new Set<string>();
  readonly failures: FakeFailure[] = [];
  rejectNewKeys = false;

  add(name: string, publicKeyPem: string): ApiKey {
    const record: ApiKey = {
      api_key: randomUUID(),
      name,
      given_name: untagged(name),
      scopes: ['read', 'write'],
      created_ts: new Date().toISOString(),
      subaccount: null,
    };
    this.keys.set(record.api_key, { record, publicKeyPem });
    if (this.rejectNewKeys) this.rejected.add(record.api_key);
    return record;
  }

  names(): string[] {
    return [...this.keys.values()].map((key) => key.record.name);
  }

  client(signer: Signer): KeyService {
    const call = async <T>(operation: Operation, work: () => T): Promise<T> => {
      const stored = this.keys.get(signer.keyId);
      if (!stored || this.rejected.has(signer.keyId) || stored.publicKeyPem !== spki(signer.privateKey)) {
        throw new TridentError(ExitCode.auth, 'keys service answered 401: INCORRECT_API_KEY_SIGNATURE', { status: 401 });
      }
      const index = this.failures.findIndex((f) => f.operation === operation && (f.signer === undefined || f.signer === signer.keyId));
      const failure = index < 0 ? undefined : this.failures[index]!;
      if (failure && --failure.times! <= 0) this.failures.splice(index, 1);
      if (failure && !failure.after) throw failure.error;
      const result = work();
      if (failure) throw failure.error;
      return result;
    };
    const record = (key: NewKey, publicKeyPem: string) => {
      const added = this.add(key.name, publicKeyPem);
      added.scopes = key.scopes ?? ['read', 'write'];
      added.subaccount = key.subaccount ?? null;
      return { ...added };
    };
    return {
      list: () => call('list', () => [...this.keys.values()].map((key) => ({ ...key.record }))),
      create: (key) => call('create', () => ({ apiKey: record(key, key.publicKeyPem) })),
      generate: (key) =>
        call('generate', () => {
          const pair = ed25519Pair();
          return { apiKey: record(key, pair.publicKeyPem), privateKeyPem: pair.privateKeyPem };
        }),
      delete: (id) => call('delete', () => (this.keys.delete(id) ? 'deleted' : 'not found')),
    };
  }

  fail(failure: FakeFailure): void {
    this.failures.push({ times: 1, ...failure });
  }
}

export class Crash extends Error {}

export interface World {
  configDir: string;
  service: FakeKeyService;
  oldId: string;
  oldFile: string;
  stderr: string[];
}

// The rotation fsyncs its journal, key files and settings at every step, and these tests run hundreds of
// rotations: where there is a memory file system (/dev/shm on Linux), the worlds live there, so that the tests
// wait for the rotation rather than for the disk. Nothing they check depends on the file system.
let worlds: string | undefined;

function worldsDir(): string {
  for (const base of ['/dev/shm', tmpdir()]) {
    try {
      accessSync(base, constants.W_OK);
      return mkdtempSync(join(base, 'trident-rotation-'));
    } catch {
      // not here: the next one
    }
  }
  throw new Error('no writable directory for the rotation tests');
}

/** Removes every world made so far: a memory file system holds them in memory. */
export function removeWorlds(): void {
  if (worlds) rmSync(worlds, { recursive: true, force: true });
  worlds = undefined;
}

/** A config dir whose profile "ci" uses a key of the fake service, its file at <config dir>/keys/<id>.pem. */
export function newWorld(): World {
  worlds ??= worldsDir();
  const configDir = join(mkdtempSync(join(worlds, 'world-')), 'config');
  const service = new FakeKeyService();
  const pair = ed25519Pair();
  const oldId = service.add('ci-key', pair.publicKeyPem).api_key;
  const oldFile = join(configDir, 'keys', `${oldId}.pem`);
  mkdirSync(join(configDir, 'keys'), { recursive: true, mode: 0o700 });
  writeFileSync(oldFile, pair.privateKeyPem, { mode: 0o600 });
  writeFileSync(
    join(configDir, 'settings.json'),
    JSON.stringify({ profiles: { ci: { 'keys.url': 'https://keys.test', 'keys.keyId': oldId, 'keys.privateKeyFile': oldFile } } }),
    { mode: 0o600 },
  );
  return { configDir, service, oldId, oldFile, stderr: [] };
}

/** A Context as a fresh process would build it; `answer` is typed at a terminal. */
export function contextFor(world: World, env: NodeJS.ProcessEnv = {}, answer?: string, now?: () => Date): Context {
  const terminal = answer !== undefined;
  return testContext({
    ...(now ? { now } : {}),
    globals: { profile: 'ci', output: 'json' },
    configDir: world.configDir,
    env,
    stdin: answer,
    stdinTTY: terminal,
    stdoutTTY: terminal,
    stderrTTY: terminal,
    onWrite: (text) => world.stderr.push(text),
  }).ctx;
}

/** The fake service behind the rotation; `crashAt` throws a Crash at that checkpoint, like a SIGKILL there. */
export function fakeDeps(world: World, crashAt?: string, checkpoints: string[] = []): RotationDeps {
  return {
    client: async (signer) => world.service.client(signer),
    generatePair: async () => ed25519Pair(),
    checkpoint: async (point) => {
      checkpoints.push(point);
      if (point === crashAt) throw new Crash(point);
    },
  };
}

/** The checkpoints of a rotation, in order, as the fake's crashAt names them. */
export const ROTATION_POINTS = [
  'minting',
  'pending',
  'answered',
  'stored',
  'switching',
  'switched',
  'verified',
  'deleting-old',
  'old-deleted',
];

/** A rotation of the world's `ci` profile, run as `keys rotate` would, crashing at `crashAt` if given. */
export async function startRotation(
  world: World,
  opts: RotateOptions = {},
  crashAt?: string,
  checkpoints?: string[],
  env?: NodeJS.ProcessEnv,
): Promise<RotationResult> {
  const ctx = contextFor(world, env);
  const rotation = await beginRotation(ctx, await planRotation(ctx, opts), fakeDeps(world, crashAt, checkpoints));
  return rotation.run();
}

/** `keys rotate --resume` or `--abort` of the world's rotation in another "process", crashing at `crashAt` if given. */
export function continueRotation(
  world: World,
  action: 'resume' | 'abort',
  crashAt?: string,
  env?: NodeJS.ProcessEnv,
): Promise<RotationResult> {
  const ctx = contextFor(world, env);
  const { path, journal } = findRotation(ctx, {}, action);
  const rotation = new Rotation(ctx, path, journal, fakeDeps(world, crashAt), { resumed: true });
  return action === 'resume' ? rotation.resume() : rotation.abort();
}
