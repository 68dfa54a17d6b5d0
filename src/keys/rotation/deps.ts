// What the rotation needs from outside, as data so that tests can replace it: clients of the key service
// signed by a given key, local key pairs, and the checkpoints at which the crash tests kill the process.
import type { Context } from '../../context.js';
import type { KeysClient } from '../client.js';
import { openKeysClient } from '../connection.js';
import { crashHook } from '../crash-points.js';
import { generateRsaKeyPair, type KeyPairPem } from '../mint/keypair.js';
import type { Signer } from '../signing.js';

export type KeyService = Pick<KeysClient, 'list' | 'create' | 'generate' | 'delete'>;

export interface RotationDeps {
  client(signer: Signer): Promise<KeyService>;
  generatePair(): Promise<KeyPairPem>;
  /** Called after each journal write with the phase, and with "generated" between a generate's answer and storing its key. */
  checkpoint(point: string): Promise<void>;
}

export { CRASH_ENV, crashHook } from '../crash-points.js';

export function liveDeps(ctx: Context, baseUrl: URL): RotationDeps {
  return {
    client: (signer) => openKeysClient(ctx, { baseUrl, signer }),
    generatePair: () => generateRsaKeyPair(2048),
    checkpoint: crashHook(ctx.env),
  };
}
