// keys rotate --if-older-than: the age of the key in use from the service's created_ts, else from trident's
// own record (<config dir>/key-ages.json); a key not due exits 0 and changes nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileMode, keyExists } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';
import { ROTATE_JSON, expectRotated, profileWithKey, rotate, signedRequestsFrom, type RotationSetup } from '../helpers/keys-rotation.js';

const DAY = 86_400;
/** How far back the sandbox's clock is while a key is added (created_ts in the past). */
let shift = 0;
const sandbox = useKeysSandbox({ now: () => Date.now() - shift, resetAfterEach: true });

function keyCreatedDaysAgo(days: number): RotationSetup {
  shift = days * DAY * 1000;
  try {
    return profileWithKey(sandbox);
  } finally {
    shift = 0;
  }
}

/** The next GET /api_keys answers without created_ts, as some deployments of the service do. */
function withoutCreatedTs(): void {
  const keys = sandbox.control.listKeys().map(({ created_ts: _, ...key }) => key);
  sandbox.server.faults.add({
    method: 'GET',
    path: /\/api_keys$/,
    fault: { kind: 'body', status: 200, contentType: 'application/json', payload: JSON.stringify({ api_keys: keys }) },
  });
}

const ages = (setup: RotationSetup) => JSON.parse(readFileSync(join(setup.configDir, 'key-ages.json'), 'utf8'));

// A rotation with hooks runs a dozen processes: 60 s per test leaves a loaded machine twice the time seen.
describe('keys rotate --if-older-than', { timeout: 60_000 }, () => {
  it('with created_ts from the service: a key older than the threshold is rotated', async () => {
    const setup = keyCreatedDaysAgo(100);
    const result = await rotate(setup, [...ROTATE_JSON, '--if-older-than', '90d']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).outcome).toBe('rotated');
    expect(result.stderr).toContain(`rotate: key ${setup.oldId} is 100 days old (the service's created_ts): older than 90d, rotating`);
    const newId = await expectRotated(sandbox, setup);
    expect(ages(setup)[newId]).toMatchObject({ how: 'made' });
    expect(ages(setup)[setup.oldId]).toBeUndefined();
  });

  it('with created_ts from the service: a younger key is not due, exit 0, one GET and nothing changed', async () => {
    const setup = keyCreatedDaysAgo(100);
    const sent = signedRequestsFrom(sandbox);
    const result = await rotate(setup, [...ROTATE_JSON, '--if-older-than', '101d']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toEqual({
      outcome: 'not due',
      api_key: setup.oldId,
      age: '100 days',
      age_seconds: expect.any(Number),
      age_source: 'service',
      threshold: '101d',
      threshold_seconds: 101 * DAY,
    });
    expect(Math.abs(report.age_seconds - 100 * DAY)).toBeLessThan(120);
    expect(
      sent()
        .filter((request) => request.signer === setup.oldId)
        .map((request) => request.method),
    ).toEqual(['GET']);
    expect(keyExists(sandbox, setup.oldId)).toBe(true);
    expect(existsSync(setup.journal)).toBe(false);
  });

  it('without created_ts and no record: the key is first seen in use now, so not due; the record is written 0600', async () => {
    const setup = profileWithKey(sandbox);
    withoutCreatedTs();
    const result = await rotate(setup, [...ROTATE_JSON, '--if-older-than', '1h']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      outcome: 'not due',
      age: 'under a minute',
      age_source: 'first seen in use',
      threshold: '1h',
    });
    expect(fileMode(join(setup.configDir, 'key-ages.json'))).toBe(0o600);
    expect(ages(setup)[setup.oldId]).toEqual({ since: expect.stringMatching(/^\d{4}-/), how: 'seen' });
    expect(keyExists(sandbox, setup.oldId)).toBe(true);
  });

  it("without created_ts: trident's record of when it first saw the key in use makes it due", async () => {
    const setup = profileWithKey(sandbox);
    mkdirSync(setup.configDir, { recursive: true });
    const since = new Date(Date.now() - 10 * DAY * 1000).toISOString();
    writeFileSync(join(setup.configDir, 'key-ages.json'), JSON.stringify({ [setup.oldId]: { since, how: 'seen' } }), { mode: 0o600 });
    withoutCreatedTs();
    const result = await rotate(setup, [...ROTATE_JSON, '--if-older-than', '1w']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `rotate: key ${setup.oldId} is 10 days old (first seen in use, trident's record): older than 1w, rotating`,
    );
    expect(JSON.parse(result.stdout).outcome).toBe('rotated');
    await expectRotated(sandbox, setup);
  });
});
