// What the keys e2e files share: a sandbox in a temp dir, the environment that points the CLI at it, and
// counting the requests it received.
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startKeysSandbox, type KeysSandbox, type KeysSandboxOptions } from '../../src/sandbox/keys/server.js';
import { runCli, tempConfigDir, type CliOptions, type CliResult } from '../helpers/cli.js';
import { untagged } from '../../src/keys/mint/tag.js';
import { heldPublicKeys } from './held-keys.js';

export { heldPublicKeys };

export async function startSandbox(options: Partial<KeysSandboxOptions> = {}): Promise<KeysSandbox> {
  return startKeysSandbox({ dir: mkdtempSync(join(tmpdir(), 'trident-keys-sandbox-')), ...options });
}

export function sandboxEnv(sandbox: KeysSandbox): Record<string, string> {
  return {
    TRIDENT_KEYS_URL: sandbox.url,
    TRIDENT_KEY_ID: sandbox.bootstrap.keyId,
    TRIDENT_PRIVATE_KEY_FILE: sandbox.bootstrap.privateKeyFile,
  };
}

/** Runs the CLI against the sandbox with a fresh config dir (unless given) and the sandbox credentials. */
export function runKeys(sandbox: KeysSandbox, args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runCli(['keys', ...args], { configDir: tempConfigDir(), ...options, env: { ...sandboxEnv(sandbox), ...options.env } });
}

/** Requests received from now on: call before the CLI runs, read after. */
export function requestsFrom(sandbox: KeysSandbox): () => Array<{ method: string; path: string }> {
  const start = sandbox.server.requests.length;
  return () => sandbox.server.requests.slice(start).map(({ method, path }) => ({ method, path }));
}

export const PRIVATE_KEY_MATERIAL = /PRIVATE KEY|MII[A-Za-z0-9+/]{40}/;

export const fileMode = (path: string): number => statSync(path).mode & 0o777;

/** The files in `<config dir>/keys`. */
export const keyFiles = (configDir: string): string[] => (existsSync(join(configDir, 'keys')) ? readdirSync(join(configDir, 'keys')) : []);

/** A key minted straight on the sandbox (sharing the bootstrap key's public half); returns its id. */
export const addKey = (sandbox: KeysSandbox, name: string): string =>
  sandbox.control.addKey({ name, publicKeyPem: sandbox.bootstrap.publicKeyPem }).api_key;

export const keyExists = (sandbox: KeysSandbox, id: string): boolean => sandbox.control.listKeys().some((key) => key.api_key === id);

/** The pending records in a config dir (create/generate requests whose outcome is not settled yet). */
export const pendingFiles = (configDir: string): string[] =>
  existsSync(join(configDir, 'pending')) ? readdirSync(join(configDir, 'pending')) : [];

/** Every live key named `name` (with or without trident's tag) on the sandbox has its private half in one of `dirs`; returns their ids. */
export function expectEveryKeyHeld(sandbox: KeysSandbox, name: string, ...dirs: string[]): string[] {
  const held = heldPublicKeys(...dirs);
  const live = sandbox.control.listKeys().filter((key) => untagged(key.name) === name);
  for (const key of live)
    expect(held.has(sandbox.control.publicKeyPem(key.api_key)!), `key ${key.api_key} ("${name}") has no private half here`).toBe(true);
  return live.map((key) => key.api_key);
}

/** The name a key made by trident for `--name <name>` carries: the name with the request's tag. */
export const tagged = (name: string): RegExp => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}~[0-9a-f]{8}$`);

/** The live keys trident made for `--name <name>` (whatever their tags). */
export const keysNamed = (sandbox: KeysSandbox, name: string) =>
  sandbox.control.listKeys().filter((key) => untagged(key.name) === name && key.name !== name);
