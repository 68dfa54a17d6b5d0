// The clients of a schedule: each a disk of its own (config dir, --out dir, the application's state) with a
// key of its own minted on the sandbox, its private half in the config dir and the default profile using it.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRsaPair } from '../../src/sandbox/keys/crypto.js';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { startKeyringSession, type KeyringSession } from '../helpers/keyring-session.js';
import { keyApp, type KeyApp } from '../helpers/keys-rotate-app.js';
import { writeProfiles } from '../helpers/settings-file.js';
import type { ClientPlan } from './schedule.js';

export interface Client {
  index: number;
  /** Everything this client holds is below it. */
  root: string;
  configDir: string;
  outDir: string;
  initialKeyId: string;
  /** The key of the second profile: the client's too, made beside the first one. */
  secondKeyId: string;
  /** The application its rotations switch (--deploy/--verify), if any. */
  app?: KeyApp;
  /** With TRIDENT_CHAOS_STORE=keyring: the client's own Secret Service, where its new keys go. */
  keyring?: KeyringSession;
}

/** TRIDENT_CHAOS_STORE=keyring runs every client with a keyring of its own (new keys go there), else files. */
export const CHAOS_STORE = process.env.TRIDENT_CHAOS_STORE === 'keyring' ? 'keyring' : 'file';

export const PROFILE = 'default';
/** A second profile of every client, on a key of its own at first: the ledger must keep what it names. */
export const SECOND_PROFILE = 'ci';
export const PROFILES = [PROFILE, SECOND_PROFILE] as const;

/** `keyring`: a Secret Service the clients share (each config dir keeps its own entries in it), else each its own or none. */
export async function setUpClient(
  sandbox: KeysSandbox,
  plan: ClientPlan,
  index: number,
  workDir: string,
  keyring?: KeyringSession,
): Promise<Client> {
  const root = join(workDir, `client-${index}`);
  const configDir = join(root, 'config');
  const outDir = join(root, 'out');
  const { privateKeyPem, publicKeyPem } = await generateRsaPair();
  const initialKeyId = sandbox.control.addKey({ name: plan.keyName, publicKeyPem }).api_key;
  const keyFile = join(configDir, 'keys', `${initialKeyId}.pem`);
  mkdirSync(join(configDir, 'keys'), { recursive: true, mode: 0o700 });
  mkdirSync(outDir, { recursive: true, mode: 0o700 });
  writeFileSync(keyFile, privateKeyPem, { mode: 0o600 });
  const second = await generateRsaPair();
  const secondKeyId = sandbox.control.addKey({ name: `${plan.keyName}-ci`, publicKeyPem: second.publicKeyPem }).api_key;
  const secondFile = join(configDir, 'keys', `${secondKeyId}.pem`);
  writeFileSync(secondFile, second.privateKeyPem, { mode: 0o600 });
  writeProfiles(configDir, {
    [PROFILE]: { 'keys.url': sandbox.url, 'keys.keyId': initialKeyId, 'keys.privateKeyFile': keyFile },
    [SECOND_PROFILE]: { 'keys.url': sandbox.url, 'keys.keyId': secondKeyId, 'keys.privateKeyFile': secondFile },
  });
  const client: Client = { index, root, configDir, outDir, initialKeyId, secondKeyId };
  if (keyring) client.keyring = keyring;
  else if (CHAOS_STORE === 'keyring') client.keyring = await startKeyringSession();
  if (plan.hooks) {
    client.app = keyApp(sandbox, initialKeyId, keyFile, join(root, 'app'));
    armHookKill(client, false);
  }
  return client;
}

/**
 * The application kills trident from its hook only while its marker file is absent (and writes it when it
 * does), so a kill asked for once happens once, also when a later --resume runs the same hook command again.
 */
export function armHookKill(client: Client, armed: boolean): void {
  if (!client.app) return;
  const marker = join(client.app.dir, 'killed');
  if (armed) rmSync(marker, { force: true });
  else if (!existsSync(marker)) writeFileSync(marker, '');
}
