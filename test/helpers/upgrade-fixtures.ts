// A config dir that an earlier release really wrote (test/fixtures/upgrade-<commit>/, made by
// scripts/upgrade-fixtures.mjs), put back in a temp dir beside a fresh keys sandbox that holds the keys that
// release's service held, under the same ids, names and public halves.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import type { KeysSandbox, SandboxApiKey } from '../../src/sandbox/keys/server.js';
import type { KeyringSession } from './keyring-session.js';
import { startSandbox } from './keys-sandbox.js';

const RELEASE = '1473a55';
const FIXTURES = resolve(import.meta.dirname, `../fixtures/upgrade-${RELEASE}`);

export interface Restored {
  root: string;
  configDir: string;
  sandbox: KeysSandbox;
  /** The keys the case names by what became of them (old, minted, due ...), from its service.json. */
  roles: Record<string, string | null>;
  /** The ids of the keys the release's service held, recreated on this sandbox. */
  recreated: string[];
  /** What today's binary needs beyond the config dir to reach the case's keys: a keyring's environment, or nothing. */
  env: Record<string, string>;
  /** The private key a profile or journal names: a file, or a keyring entry (`keyring:trident/<account>`). */
  read(place: string): string | undefined;
  /** The config dir's file at `path` (relative to it), parsed. */
  json<T = Record<string, unknown>>(path: string): T;
}

type FixtureKey = SandboxApiKey & { public_key_pem: string };

/** The pid of a process that has ended: a pending record or lock of the release names it as its dead writer. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

/** Copies the fixture's files with its placeholders filled in, private as the release made them (0700, 0600). */
function copyPortable(from: string, to: string, fill: (text: string) => string): void {
  cpSync(from, to, { recursive: true });
  const walk = (dir: string) => {
    chmodSync(dir, 0o700);
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        writeFileSync(path, fill(readFileSync(path, 'utf8')));
        chmodSync(path, 0o600);
      }
    }
  };
  walk(to);
}

export interface RestoreOptions {
  /** The service lists the keys without created_ts, so that their age can come only from the release's key-ages.json. */
  undated?: boolean;
  /** The Secret Service the case's keyring entries (keyring.json) are written to, as the release wrote them. */
  keyring?: KeyringSession;
}

/** Every restore of a suite, its sandbox stopped after the suite's last test. */
export function useUpgradeFixtures(): (name: string, options?: RestoreOptions) => Promise<Restored> {
  const sandboxes: KeysSandbox[] = [];
  afterAll(async () => {
    await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  });
  return async (name, { undated = false, keyring } = {}) => {
    const fixture = join(FIXTURES, name);
    const service = JSON.parse(readFileSync(join(fixture, 'service.json'), 'utf8')) as { roles: Restored['roles']; keys: FixtureKey[] };
    const sandbox = await startSandbox();
    sandboxes.push(sandbox);
    for (const key of service.keys)
      sandbox.control.addKey({
        apiKey: key.api_key,
        name: key.name,
        publicKeyPem: key.public_key_pem,
        scopes: key.scopes,
        subaccount: key.subaccount,
        createdTs: undated ? null : key.created_ts,
      });
    const root = mkdtempSync(join(tmpdir(), `trident-upgrade-${name}-`));
    const pid = String(deadPid());
    const fill = (text: string) => text.replaceAll('@ROOT@', root).replaceAll('@KEYS_URL@', sandbox.url).replaceAll('@DEAD_PID@', pid);
    for (const dir of ['config', 'out']) if (existsSync(join(fixture, dir))) copyPortable(join(fixture, dir), join(root, dir), fill);
    chmodSync(root, 0o700);
    const roles = JSON.parse(fill(JSON.stringify(service.roles))) as Restored['roles'];
    const configDir = join(root, 'config');
    const recreated = service.keys.map((key) => key.api_key);
    if (keyring) {
      const entries = JSON.parse(readFileSync(join(fixture, 'keyring.json'), 'utf8')) as Array<{ account: string; secret: string }>;
      for (const { account, secret } of entries) keyring.put(account, secret);
    }
    const read = (place: string) =>
      place.startsWith('keyring:trident/') ? keyring?.lookup(place.slice('keyring:trident/'.length)) : readFileSync(place, 'utf8');
    return {
      root,
      configDir,
      sandbox,
      roles,
      recreated,
      env: keyring?.env ?? {},
      read,
      json: (path) => JSON.parse(readFileSync(join(configDir, path), 'utf8')),
    };
  };
}
