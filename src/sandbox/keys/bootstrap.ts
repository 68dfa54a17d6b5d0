// The sandbox's first key: without one nobody could call a service on which every call needs a key.
import { createPublicKey, randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { generateRsaPair } from './crypto.js';
import type { KeyStore } from './store.js';

export interface BootstrapKey {
  keyId: string;
  privateKeyFile: string;
  publicKeyPem: string;
}

export const BOOTSTRAP_FILE = 'bootstrap-key.pem';

export async function createBootstrapKey(store: KeyStore, dir: string): Promise<BootstrapKey> {
  const { privateKeyPem, publicKeyPem } = await generateRsaPair();
  const privateKeyFile = join(dir, BOOTSTRAP_FILE);
  await writeSecret(privateKeyFile, privateKeyPem);
  const record = store.add({
    name: 'sandbox-bootstrap',
    publicKey: createPublicKey(publicKeyPem),
    scopes: ['read', 'write'],
    subaccount: null,
  });
  return { keyId: record.api_key, privateKeyFile, publicKeyPem };
}

/**
 * Atomic 0600 write. Replaces a bootstrap key left by an earlier run on purpose: each run mints a new one,
 * and the old one is useless since the sandbox keeps no state between runs.
 */
async function writeSecret(file: string, text: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true, mode: 0o700 });
  const temp = `${file}.${randomUUID()}.tmp`;
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, file);
}
