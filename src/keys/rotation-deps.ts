// What the rotation needs from outside, as data so that tests can replace it: clients of the key service
// signed by a given key, local key pairs, and the checkpoints at which the crash tests kill the process.
import type { Context } from '../context.js';
import type { KeysClient } from './client.js';
import { openKeysClient } from './connection.js';
import { generateRsaKeyPair, type KeyPairPem } from './keypair.js';
import type { Signer } from './signing.js';

export type KeyService = Pick<KeysClient, 'list' | 'create' | 'generate' | 'delete'>;

export interface RotationDeps {
  client(signer: Signer): Promise<KeyService>;
  generatePair(): Promise<KeyPairPem>;
  /** Called after each journal write with the phase, and with "generated" between a generate's answer and storing its key. */
  checkpoint(point: string): Promise<void>;
}

/**
 * Test hook of the crash tests: with TRIDENT_TEST_CRASH_AFTER=<phase or "generated"> the process SIGKILLs
 * itself at that checkpoint, as if killed there. Nothing else reads the variable; without it this does nothing.
 */
export const CRASH_ENV = 'TRIDENT_TEST_CRASH_AFTER';

export function crashHook(env: NodeJS.ProcessEnv): (point: string) => Promise<void> {
  const target = env[CRASH_ENV];
  return async (point) => {
    if (target === undefined || point !== target) return;
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => undefined);
  };
}

export function liveDeps(ctx: Context, baseUrl: URL): RotationDeps {
  return {
    client: (signer) => openKeysClient(ctx, { baseUrl, signer }),
    generatePair: () => generateRsaKeyPair(2048),
    checkpoint: crashHook(ctx.env),
  };
}
