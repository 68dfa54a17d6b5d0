// The runs that change which key a profile names, or which profile a config dir uses by default: `keys delete
// --force` of the key the second profile uses, `config use`, `config unset` of a key setting with the `keys setup`
// that binds the profile again, and `keys setup`. What each acts on is read from the client's disk and the sandbox
// as it starts, as a person looks before typing it; a run that finds nothing fit to act on runs nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { PROFILE, SECOND_PROFILE, type Client } from './clients.js';
import { readProfile, type ProfileState } from './disk.js';
import type { ProcessRecord } from './observation.js';
import type { Command, Interruption } from './schedule.js';

export interface Launcher {
  launch(label: string, client: Client, argv: string[], interruption?: Interruption): Promise<ProcessRecord>;
}

const KEYRING_PLACE = 'keyring:trident/';

/**
 * The keys the client made: its first two, and every key one of its keys signed the making of. The harness
 * --force-deletes only these: a key of another client deleted is what invariant (b) forbids.
 */
function clientsOwnKeys(sandbox: KeysSandbox, client: Client): Set<string> {
  const own = new Set([client.initialKeyId, client.secondKeyId]);
  for (const event of sandbox.control.events()) if (event.type !== 'delete' && own.has(event.signer)) own.add(event.id);
  return own;
}

const alive = (sandbox: KeysSandbox, id: string) => sandbox.control.listKeys().some((key) => key.api_key === id);

/**
 * A file holding the private half of the key `profile` names, for `keys setup --private-key`: the profile's own
 * file, or a copy of its keyring entry in the client's --out dir (setup reads files, not entries). Nothing when the
 * key is gone or its place does not hold it.
 */
function bindableKey(
  sandbox: KeysSandbox,
  client: Client,
  profile: ProfileState,
  label: string,
): { keyId: string; file: string } | undefined {
  const { keyId, privateKeyFile, filePublicKey } = profile;
  if (keyId === undefined || privateKeyFile === undefined || !alive(sandbox, keyId)) return undefined;
  if (filePublicKey === undefined || filePublicKey !== sandbox.control.publicKeyPemEver(keyId)) return undefined;
  if (!privateKeyFile.startsWith(KEYRING_PLACE)) return { keyId, file: privateKeyFile };
  const pem = client.keyring?.lookup(privateKeyFile.slice(KEYRING_PLACE.length));
  if (pem === undefined) return undefined;
  const file = join(client.outDir, `${label}.pem`);
  writeFileSync(file, pem, { mode: 0o600 });
  return readFileSync(file, 'utf8') === pem ? { keyId, file } : undefined;
}

const setupArgs = (sandbox: KeysSandbox, key: { keyId: string; file: string }): string[] => [
  '--profile',
  SECOND_PROFILE,
  'keys',
  'setup',
  '--url',
  sandbox.url,
  '--key-id',
  key.keyId,
  '--private-key',
  key.file,
  '--force',
  '-o',
  'json',
];

type ProfileCommand = Extract<Command, { verb: 'force-delete' | 'use' | 'unset' | 'setup' }>;

export async function runProfileCommand(
  launcher: Launcher,
  sandbox: KeysSandbox,
  client: Client,
  label: string,
  command: ProfileCommand,
  interruption?: Interruption,
): Promise<void> {
  switch (command.verb) {
    case 'force-delete': {
      // The key the second profile uses, signed for by the default profile's: another profile's key, the client's own.
      const { keyId } = readProfile(client, SECOND_PROFILE);
      if (keyId === undefined || keyId === readProfile(client).keyId || !alive(sandbox, keyId)) return;
      if (!clientsOwnKeys(sandbox, client).has(keyId)) return;
      const argv = ['--profile', PROFILE, 'keys', 'delete', keyId, '--force', '--yes', '-o', 'json'];
      await launcher.launch(label, client, argv, interruption);
      return;
    }
    case 'use':
      await launcher.launch(label, client, ['config', 'use', command.profile]);
      return;
    case 'unset': {
      // Bound again to the key it names as it starts, so that the profile ends with a key as before.
      const key = bindableKey(sandbox, client, readProfile(client, SECOND_PROFILE), label);
      if (!key) return;
      await launcher.launch(`${label}.unset`, client, ['--profile', SECOND_PROFILE, 'config', 'unset', command.setting]);
      await launcher.launch(`${label}.setup`, client, setupArgs(sandbox, key));
      return;
    }
    case 'setup': {
      const from = command.from === 'ci' ? SECOND_PROFILE : PROFILE;
      const key = bindableKey(sandbox, client, readProfile(client, from), label);
      if (key) await launcher.launch(label, client, setupArgs(sandbox, key));
      return;
    }
  }
}
