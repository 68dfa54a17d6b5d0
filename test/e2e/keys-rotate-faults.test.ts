// A rotation killed (SIGKILL) while one of its requests hangs on the service, before or after the service
// acted on it: the mint, the verification signed by the new key, the old key's delete. Then --resume or
// --abort must leave the invariant. The faults are the sandbox's, so these tests run one at a time.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FaultRule } from '../../src/sandbox/http/faults.js';
import {
  ROTATE_JSON,
  expectRotated,
  expectUndone,
  keysOfTest,
  profileWithKey,
  rotate,
  signedRequestsFrom,
  spawnRotate,
  type RotationSetup,
} from '../helpers/keys-rotation.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox({ resetAfterEach: true });

/** Starts a rotation, waits until the sandbox holds the request that `arm` set a hang for, and kills the CLI. */
async function killWhileHanging(setup: RotationSetup, phase: string, arm: () => void, args: string[] = []): Promise<void> {
  arm();
  const held = sandbox.server.faults.next();
  const child = spawnRotate(setup, [...ROTATE_JSON, ...args]);
  await held;
  child.kill('SIGKILL');
  expect((await child).signal).toBe('SIGKILL');
  expect(JSON.parse(readFileSync(setup.journal, 'utf8')).phase).toBe(phase);
}

const hang = (rule: Omit<FaultRule, 'fault'>, afterProcessing: boolean) => () =>
  sandbox.server.faults.add({ ...rule, fault: { kind: 'hang', afterProcessing } });

/** The verification: the first GET signed by a key other than the old one hangs (armed the moment it arrives). */
const hangVerification = (setup: RotationSetup) => () => {
  const requests = sandbox.server.requests;
  const push = requests.push;
  requests.push = (...items) => {
    for (const item of items) {
      if (item.method === 'GET' && item.headers['kalshi-access-key'] !== setup.oldId) {
        sandbox.server.faults.add({ method: 'GET', path: item.path, fault: { kind: 'hang' } });
        requests.push = push;
      }
    }
    return push.apply(requests, items);
  };
};

async function finish(setup: RotationSetup, action: 'resume' | 'abort'): Promise<Record<string, any>> {
  const result = await rotate(setup, [`--${action}`, ...ROTATE_JSON]);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe('a rotation killed while the service holds its request', () => {
  it('during a generate the service carried out: --resume deletes the key nobody holds and makes another', async () => {
    const setup = profileWithKey(sandbox);
    await killWhileHanging(setup, 'minting', hang({ method: 'POST', path: /generate$/ }, true));
    const [orphan] = keysOfTest(sandbox, setup).filter((key) => key.api_key !== setup.oldId);
    expect(orphan).toBeDefined();
    const report = await finish(setup, 'resume');
    expect(report.warnings).toEqual([`the interrupted mint: deleted key ${orphan!.api_key}, whose private key never arrived`]);
    expect(report.new_key.api_key).not.toBe(orphan!.api_key);
    await expectRotated(sandbox, setup);
  });

  it('a generate whose connection dropped after the service carried it out is settled at once: its key deleted, nothing changed', async () => {
    const setup = profileWithKey(sandbox);
    sandbox.server.faults.add({ method: 'POST', path: /generate$/, fault: { kind: 'reset', afterProcessing: true } });
    const failed = await rotate(setup, ROTATE_JSON);
    expect(failed.exitCode).toBe(8);
    expect(failed.stderr).toMatch(
      /trident: the generate request for key "[^"]+~[0-9a-f]{8}" failed \(.*\); a check found: deleted key \S+, whose private key never arrived\nhint: nothing is left behind: run the command again\n$/,
    );
    expect(failed.stdout).toBe('');
    expect(keysOfTest(sandbox, setup).map((key) => key.api_key)).toEqual([setup.oldId]);
    const again = await rotate(setup, ROTATE_JSON);
    expect(again.exitCode, again.stderr).toBe(0);
    await expectRotated(sandbox, setup);
  });

  it('during a generate the service carried out: --abort deletes the key', async () => {
    const setup = profileWithKey(sandbox);
    await killWhileHanging(setup, 'minting', hang({ method: 'POST', path: /generate$/ }, true));
    expect(keysOfTest(sandbox, setup)).toHaveLength(2);
    expect((await finish(setup, 'abort')).outcome).toBe('aborted');
    await expectUndone(sandbox, setup);
  });

  it('during a generate the service never carried out: --resume makes the key', async () => {
    const setup = profileWithKey(sandbox);
    await killWhileHanging(setup, 'minting', hang({ method: 'POST', path: /generate$/ }, false));
    expect(keysOfTest(sandbox, setup)).toHaveLength(1);
    const report = await finish(setup, 'resume');
    // The held request may still be carried out: later keys commands delete its key if it appears.
    expect(report.warnings).toEqual([
      expect.stringMatching(
        /^the interrupted mint of key "[^"]+~[0-9a-f]{8}" is not listed yet: keys commands against this service until \d\d:\d\d:\d\d UTC delete it if the service makes it late$/,
      ),
    ]);
    await expectRotated(sandbox, setup);
  });

  it('during a --local upload the service carried out: --resume keeps the key, whose private half was staged first', async () => {
    const setup = profileWithKey(sandbox);
    await killWhileHanging(setup, 'minting', hang({ method: 'POST', path: '/trade-api/v2/api_keys' }, true), ['--local']);
    const [uploaded] = keysOfTest(sandbox, setup).filter((key) => key.api_key !== setup.oldId);
    const seen = signedRequestsFrom(sandbox);
    const report = await finish(setup, 'resume');
    expect(report.new_key.api_key).toBe(uploaded!.api_key);
    expect(seen().filter((request) => request.method === 'POST')).toEqual([]);
    await expectRotated(sandbox, setup);
  });

  it('during a --local upload the service carried out: --abort deletes the key and the staged private key', async () => {
    const setup = profileWithKey(sandbox);
    await killWhileHanging(setup, 'minting', hang({ method: 'POST', path: '/trade-api/v2/api_keys' }, true), ['--local']);
    await finish(setup, 'abort');
    await expectUndone(sandbox, setup);
  });

  for (const action of ['resume', 'abort'] as const) {
    it(`during the verification signed by the new key: --${action}`, async () => {
      const setup = profileWithKey(sandbox);
      await killWhileHanging(setup, 'switched', hangVerification(setup));
      const report = await finish(setup, action);
      if (action === 'resume') await expectRotated(sandbox, setup);
      else await expectUndone(sandbox, setup);
      expect(report.outcome).toBe(action === 'resume' ? 'rotated' : 'aborted');
    });
  }

  for (const afterProcessing of [true, false]) {
    for (const action of ['resume', 'abort'] as const) {
      it(`during the old key's delete (${afterProcessing ? 'carried out' : 'not carried out'}): --${action} finishes the rotation`, async () => {
        const setup = profileWithKey(sandbox);
        await killWhileHanging(
          setup,
          'deleting-old',
          hang({ method: 'DELETE', path: `/trade-api/v2/api_keys/${setup.oldId}` }, afterProcessing),
        );
        const report = await finish(setup, action);
        expect(report.outcome).toBe('rotated');
        expect(report.steps.find((step: { step: string }) => step.step === 'delete-old').result).toBe(
          afterProcessing ? 'not found' : 'deleted',
        );
        if (action === 'abort') expect(report.warnings[0]).toContain('cannot be undone: finishing it instead');
        await expectRotated(sandbox, setup);
      });
    }
  }
});
