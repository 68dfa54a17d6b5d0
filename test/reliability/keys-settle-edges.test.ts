// Settlement at its edges: keys whose own requests may not list keys (a subaccount's, one without the read
// scope) are still recognised as held by their private half; a name shaped like trident's tag is refused; a
// settled key's private half is never left where the same command's forced write replaces it; a lock file
// someone else planted is refused.
import { chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { expectEveryKeyHeld, keysNamed, pendingFiles, requestsFrom, runKeys, sandboxEnv } from '../helpers/keys-sandbox.js';
import { keysOfTest, profileWithKey, rotate } from '../helpers/keys-rotation.js';
import { errorOf } from './harness.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

const deletes = () =>
  sandbox.control
    .events()
    .filter((event) => event.type === 'delete')
    .map((event) => event.id);

describe.concurrent('a key whose requests may not list keys', () => {
  for (const [what, flags] of [
    ['a subaccount key', ['--subaccount', '3']],
    ['a key without the read scope', ['--scopes', 'write::transfer']],
  ] as const) {
    it(`${what}, killed after its private half was stored: the next command keeps it`, async () => {
      const configDir = tempConfigDir();
      const name = `limited-${flags[0].slice(2)}`;
      const killed = await spawnCli(['keys', 'generate', '--name', name, ...flags], {
        configDir,
        env: { ...sandboxEnv(sandbox), [CRASH_ENV]: 'stored' },
      });
      expect(killed.signal).toBe('SIGKILL');
      const [made] = keysNamed(sandbox, name);
      const list = await runKeys(sandbox, ['list'], { configDir });
      expect(list.exitCode, list.stderr).toBe(0);
      expect(list.stderr).toContain(`kept key ${made!.api_key}, its private key in ${join(configDir, 'keys', `${made!.api_key}.pem`)}`);
      expect(deletes()).not.toContain(made!.api_key);
      expect(expectEveryKeyHeld(sandbox, name, join(configDir, 'keys'))).toEqual([made!.api_key]);
    });
  }

  it('a subaccount key made here whose create answer was lost: found by its private half, kept (exit 0)', async () => {
    const configDir = tempConfigDir();
    sandbox.server.faults.add({ method: 'POST', path: /\/api_keys$/, fault: { kind: 'reset', afterProcessing: true } });
    const result = await runKeys(sandbox, ['create', '--name', 'limited-lost', '--subaccount', '3', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    const [made] = keysNamed(sandbox, 'limited-lost');
    expect(JSON.parse(result.stdout).api_key).toBe(made!.api_key);
    expect(expectEveryKeyHeld(sandbox, 'limited-lost', join(configDir, 'keys'))).toEqual([made!.api_key]);
    expect(pendingFiles(configDir)).toEqual([]);
  });
});

describe('names shaped like a request tag', () => {
  it('are refused by create, generate and rotate before anything is sent (exit 2)', async () => {
    const setup = profileWithKey(sandbox);
    const sent = requestsFrom(sandbox);
    for (const args of [
      ['create', '--name', 'alpha~b437c669', '--public-key', sandbox.bootstrap.privateKeyFile],
      ['generate', '--name', 'alpha~B437C669'.toLowerCase()],
    ]) {
      const result = await runKeys(sandbox, args);
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result).message).toMatch(
        /^invalid --name "alpha~b437c669": a name ending in "~" and 8 hex digits is the form of trident's request tags$/,
      );
    }
    const rotated = await rotate(setup, ['--yes', '--name', 'next~0123abcd']);
    expect(rotated.exitCode, rotated.stderr).toBe(2);
    expect(sent()).toEqual([]);
  });
});

describe('a settled key and the same command run again with --force', () => {
  for (const verb of ['create', 'generate'] as const) {
    it(`${verb} --out X --force killed, then run again: the settled key keeps its private half, the new one takes X`, async () => {
      const configDir = tempConfigDir();
      const out = join(configDir, '..', `${verb}-x.pem`);
      const name = `forced-${verb}`;
      const point = verb === 'create' ? 'answered' : 'stored';
      const killed = await spawnCli(['keys', verb, '--name', name, '--out', out, '--force'], {
        configDir,
        env: { ...sandboxEnv(sandbox), [CRASH_ENV]: point },
      });
      expect(killed.signal).toBe('SIGKILL');
      const again = await runKeys(sandbox, [verb, '--name', name, '--out', out, '--force', '-o', 'json'], { configDir });
      expect(again.exitCode, again.stderr).toBe(0);
      const live = expectEveryKeyHeld(sandbox, name, join(configDir, 'keys'), join(configDir, '..'));
      expect(live).toHaveLength(2);
      expect(live).toContain(JSON.parse(again.stdout).api_key);
    });
  }
});

describe('a rotation lock someone else planted', () => {
  it('is refused with exit 2 naming it, nothing sent', async () => {
    const setup = profileWithKey(sandbox);
    mkdirSync(join(setup.configDir, 'rotations'), { recursive: true, mode: 0o700 });
    const lock = `${setup.journal}.lock`;
    writeFileSync(lock, '1 0\n', { mode: 0o600 });
    chownSync(lock, 4242, 4242);
    const sent = requestsFrom(sandbox);
    const result = await rotate(setup, ['--yes']);
    expect(result.exitCode, result.stderr).toBe(2);
    expect(errorOf(result).message).toBe(`lock file ${lock} belongs to another user (uid 4242): refused`);
    expect(sent()).toEqual([]);
  });
});

describe('two --resume at once', () => {
  it('one finishes the rotation, the other is refused (exit 2) while it works, and nothing is done twice', async () => {
    const setup = profileWithKey(sandbox);
    const killed = await spawnCli(['--profile', setup.profile, 'keys', 'rotate', '--yes', '-o', 'json'], {
      configDir: setup.configDir,
      env: { [CRASH_ENV]: 'switched' },
    });
    expect(killed.signal).toBe('SIGKILL');
    // The verification of the first resume to arrive waits, so that the second comes while it works.
    sandbox.server.faults.add({ method: 'GET', path: /\/api_keys$/, fault: { kind: 'delay', ms: 1500 } });
    const [a, b] = await Promise.all([
      rotate(setup, ['--resume', '--yes', '-o', 'json']),
      rotate(setup, ['--resume', '--yes', '-o', 'json']),
    ]);
    const results = [a, b];
    expect(results.map((result) => result.exitCode).sort(), results.map((result) => result.stderr).join('\n')).toEqual([0, 2]);
    const refused = results.find((result) => result.exitCode === 2)!;
    expect(refused.stderr).toMatch(
      /^trident: another trident process \(pid \d+\) is working on this rotation \(journal \S+\)\nhint: let it finish; /,
    );
    const done = JSON.parse(results.find((result) => result.exitCode === 0)!.stdout) as { outcome: string; new_key: { api_key: string } };
    expect(done.outcome).toBe('rotated');
    expect(deletes().filter((id) => id === setup.oldId)).toHaveLength(1);
    expect(keysOfTest(sandbox, setup).map((key) => key.api_key)).toEqual([done.new_key.api_key]);
  });
});
