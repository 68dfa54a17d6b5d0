// The application of the hook e2e tests (test/helpers/key-app.mjs): a directory holding the key it uses,
// seeded with the rotation's old key, the --deploy and --verify commands that drive it, and what it recorded.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';

const APP = resolve(import.meta.dirname, 'key-app.mjs');

export interface AppCall {
  mode: 'deploy' | 'verify';
  step: 'deploy' | 'verify' | 'rollback';
  key_id: string;
  argv: string[];
  env: Record<string, string>;
  ps: string;
  stored?: string;
  verified?: string;
  status?: number;
  failed?: boolean;
  grandchild?: number;
}

export interface AppBehaviour {
  failOn?: string[];
  hangOn?: string[];
  killTridentOn?: string[];
  /** --fail-on holds only while <dir>/broken exists. */
  untilRepaired?: boolean;
}

export interface KeyApp {
  dir: string;
  deploy(behaviour?: AppBehaviour): string;
  verify(behaviour?: AppBehaviour): string;
  /** The key the application holds now. */
  key(): { id: string; pem: string };
  calls(): AppCall[];
}

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function flags(behaviour: AppBehaviour = {}): string {
  const pairs: Array<[string, string[] | undefined]> = [
    ['--fail-on', behaviour.failOn],
    ['--hang-on', behaviour.hangOn],
    ['--kill-trident-on', behaviour.killTridentOn],
  ];
  const given = pairs.filter(([, steps]) => steps?.length).map(([flag, steps]) => ` ${flag} ${steps!.join(',')}`);
  return given.join('') + (behaviour.untilRepaired ? ' --until-repaired' : '');
}

/** An application using key `keyId` (whose PEM is in `pemFile`), talking to the sandbox; its state in `dir`. */
export function keyApp(
  sandbox: KeysSandbox,
  keyId: string,
  pemFile: string,
  dir = mkdtempSync(join(tmpdir(), 'trident-key-app-')),
): KeyApp {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'key.json'), JSON.stringify({ id: keyId, pem: readFileSync(pemFile, 'utf8') }));
  const command = (mode: string, behaviour?: AppBehaviour, ...args: string[]) =>
    [process.execPath, APP, mode, dir, ...args].map(quote).join(' ') + flags(behaviour);
  return {
    dir,
    deploy: (behaviour) => command('deploy', behaviour),
    verify: (behaviour) => command('verify', behaviour, sandbox.url),
    key: () => JSON.parse(readFileSync(join(dir, 'key.json'), 'utf8')),
    calls: () =>
      (existsSync(join(dir, 'calls.ndjson')) ? readFileSync(join(dir, 'calls.ndjson'), 'utf8') : '')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as AppCall),
  };
}
