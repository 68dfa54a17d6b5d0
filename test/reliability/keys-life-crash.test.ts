// keys generate and keys create killed (SIGKILL, through the test hook TRIDENT_TEST_CRASH_AFTER) at each of their
// checkpoints: before the request, after the answer, after storing. The pending record they leave is settled by
// the next keys command (here `keys list`), which says so in one line; after it, by the service's own list, no
// live key of that name lacks its private half on disk, and no pending record or staged key file is left. A
// record whose key is not listed stays while the service may still make it (LATE_KEY_WINDOW_MS): the test ages
// it past that window, and the command after that settles it.
import { statSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import { LATE_KEY_WINDOW_MS } from '../../src/keys/mint/pending.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { expectEveryKeyHeld, keyFiles, keysNamed, pendingFiles, runKeys, sandboxEnv, tagged } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

const RUNS = 3;
const namedOnService = (name: string) => keysNamed(sandbox, name);
const postsNaming = (name: string) =>
  sandbox.server.requests.filter((request) => request.method === 'POST' && request.body.includes(`"${name}~`));

/** What the next command says it settled, given the key (if any) the killed command made. */
type Expectation = {
  told: (id: string | undefined, configDir: string) => string;
  survives: boolean;
  posted: boolean;
  notListedYet?: boolean;
};

const NOT_YET =
  /^warning: checked 1 interrupted key request of an earlier run: (generate|create) "[^"]+": no key of that request is listed yet; keys commands check again until \d\d:\d\d:\d\d UTC\n$/;

/** Moves the record's time back past the window in which its key could still appear. */
function ageRecord(path: string): void {
  const record = JSON.parse(readFileSync(path, 'utf8')) as { written_at: string };
  record.written_at = new Date(Date.parse(record.written_at) - LATE_KEY_WINDOW_MS - 1000).toISOString();
  writeFileSync(path, JSON.stringify(record));
}

const EXPECTED: Record<'generate' | 'create', Record<string, Expectation>> = {
  generate: {
    pending: { told: () => 'no key was made', survives: false, posted: false, notListedYet: true },
    answered: { told: (id) => `deleted key ${id}, whose private key never arrived`, survives: false, posted: true },
    stored: { told: (id, dir) => `kept key ${id}, its private key in ${join(dir, 'keys', `${id}.pem`)}`, survives: true, posted: true },
  },
  create: {
    pending: { told: () => 'no key was made', survives: false, posted: false, notListedYet: true },
    answered: { told: (id, dir) => `kept key ${id}, its private key in ${join(dir, 'keys', `${id}.pem`)}`, survives: true, posted: true },
    stored: { told: (id, dir) => `kept key ${id}, its private key in ${join(dir, 'keys', `${id}.pem`)}`, survives: true, posted: true },
  },
};

async function crashThenList(verb: 'generate' | 'create', point: string, run: number): Promise<void> {
  const configDir = tempConfigDir();
  const name = `life-${verb}-${point}-${run}-${process.pid}`;
  const expected = EXPECTED[verb][point]!;

  const child = spawnCli(['keys', verb, '--name', name, '--scopes', 'read,write'], {
    configDir,
    env: { ...sandboxEnv(sandbox), [CRASH_ENV]: point },
  });
  const killed = await child;
  expect(killed.signal, String(killed.stderr)).toBe('SIGKILL');
  // What it left: one pending record, 0600 in a 0700 directory, naming the request.
  const [record, ...more] = pendingFiles(configDir);
  expect(more).toEqual([]);
  const recordPath = join(configDir, 'pending', record!);
  expect(statSync(recordPath).mode & 0o777).toBe(0o600);
  expect(statSync(join(configDir, 'pending')).mode & 0o777).toBe(0o700);
  expect(JSON.parse(readFileSync(recordPath, 'utf8'))).toMatchObject({
    version: 2,
    verb,
    name,
    sent_name: expect.stringMatching(tagged(name)),
    url: sandbox.url,
    scopes: ['read', 'write'],
    pid: child.pid,
  });
  const { sent_name: sentName } = JSON.parse(readFileSync(recordPath, 'utf8')) as { sent_name: string };
  expect(postsNaming(name).length).toBe(expected.posted ? 1 : 0);
  const made = namedOnService(name)[0]?.api_key;

  if (expected.notListedYet) {
    // Killed before the request left: no key is listed, but nothing here can tell it will not come.
    const early = await runKeys(sandbox, ['list'], { configDir });
    expect(early.exitCode, early.stderr).toBe(0);
    expect(early.stderr).toMatch(NOT_YET);
    expect(pendingFiles(configDir)).toEqual([record]);
    ageRecord(recordPath);
  }
  const list = await runKeys(sandbox, ['list', '-o', 'json'], { configDir });
  expect(list.exitCode, list.stderr).toBe(0);
  expect(list.stderr).toBe(
    `warning: settled 1 interrupted key request of an earlier run: ${verb} "${sentName}": ${expected.told(made, configDir)}\n`,
  );
  // The list printed is the service's state after the settlement.
  expect((JSON.parse(list.stdout) as Array<{ name: string }>).filter((key) => key.name === sentName)).toHaveLength(
    expected.survives ? 1 : 0,
  );

  const live = expectEveryKeyHeld(sandbox, name, join(configDir, 'keys'));
  expect(live).toEqual(expected.survives ? [made] : []);
  expect(pendingFiles(configDir)).toEqual([]);
  expect(keyFiles(configDir)).toEqual(live.map((id) => `${id}.pem`));
  // Settled once: the next command has nothing to say.
  const again = await runKeys(sandbox, ['list'], { configDir });
  expect([again.exitCode, again.stderr]).toEqual([0, '']);
}

describe.concurrent('a create or generate killed at each checkpoint, then keys list', () => {
  for (const verb of ['generate', 'create'] as const) {
    for (const point of Object.keys(EXPECTED[verb])) {
      it(`${verb} killed after "${point}" (${RUNS} runs)`, async () => {
        for (let run = 0; run < RUNS; run++) await crashThenList(verb, point, run);
      }, 90_000);
    }
  }
});
