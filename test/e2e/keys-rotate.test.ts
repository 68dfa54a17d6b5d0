import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/rotation/deps.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { fileMode, keyExists, PRIVATE_KEY_MATERIAL, requestsFrom, tagged } from '../helpers/keys-sandbox.js';
import {
  ROTATE_JSON,
  expectOneWorkingKey,
  expectRotated,
  expectUndone,
  keysOfTest,
  oldKeyUndeletable,
  profileKey,
  profileWithKey,
  rotate,
  signedRequestsFrom,
} from '../helpers/keys-rotation.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox({ resetAfterEach: true });

const exists = (id: string) => keyExists(sandbox, id);

describe('keys rotate', () => {
  it('generates, stores, switches, verifies and deletes the old key and the file trident made for it', async () => {
    const setup = profileWithKey(sandbox);
    const seen = signedRequestsFrom(sandbox);
    const result = await rotate(setup, [...ROTATE_JSON, '--debug']);
    expect(result.exitCode, result.stderr).toBe(0);
    const requests = seen();
    const newId = await expectRotated(sandbox, setup);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      outcome: 'rotated',
      profile: 'ci',
      old_key: { api_key: setup.oldId, name: setup.name, scopes: ['read', 'write'], subaccount: null, private_key_file: setup.oldFile },
      new_key: {
        api_key: newId,
        name: expect.stringMatching(new RegExp(`^${setup.name}-rotated-\\d{8}T\\d{6}Z~[0-9a-f]{8}$`)),
        scopes: ['read', 'write'],
        subaccount: null,
      },
      private_key_file: join(setup.configDir, 'keys', `${newId}.pem`),
      old_key_deleted: true,
      warnings: [],
    });
    expect(report.steps.map((step: { step: string; status: string }) => `${step.step}:${step.status}`)).toEqual([
      'preflight:done',
      'mint:done',
      'store:done',
      'switch:done',
      'verify:done',
      'delete-old:done',
      'remove-old-file:done',
    ]);
    for (const step of report.steps) expect(step.ms).toEqual(expect.any(Number));
    expect(requests).toEqual([
      { method: 'GET', path: '/trade-api/v2/api_keys', signer: setup.oldId },
      { method: 'POST', path: '/trade-api/v2/api_keys/generate', signer: setup.oldId },
      { method: 'GET', path: '/trade-api/v2/api_keys', signer: newId },
      { method: 'DELETE', path: `/trade-api/v2/api_keys/${setup.oldId}`, signer: newId },
    ]);
    expect(result.stderr).toContain('debug: < 201');
    expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    expect(result.stderr).toContain('rotate: verify done');
  });

  it('keeps an old key file outside <config dir>/keys, and says why', async () => {
    const setup = profileWithKey(sandbox, { ownFile: true });
    const result = await rotate(setup, ROTATE_JSON);
    expect(result.exitCode, result.stderr).toBe(0);
    const { keyId } = await expectOneWorkingKey(sandbox, setup);
    expect(keyId).not.toBe(setup.oldId);
    expect(existsSync(setup.oldFile)).toBe(true);
    expect(JSON.parse(result.stdout).steps.at(-1)).toMatchObject({
      step: 'remove-old-file',
      status: 'skipped',
      reason:
        "it is not trident's own place for the key (its keyring entry or <config dir>/keys/<api_key>.pem): a file elsewhere is left to you",
    });
  });

  it('--local makes the pair here and uploads only the public half; --name and --out are honoured', async () => {
    const setup = profileWithKey(sandbox);
    const out = join(dirname(setup.configDir), 'new.pem');
    const seen = requestsFrom(sandbox);
    const result = await rotate(setup, [...ROTATE_JSON, '--local', '--name', `${setup.name}-next`, '--out', out]);
    expect(result.exitCode, result.stderr).toBe(0);
    const { keyId, file } = await expectOneWorkingKey(sandbox, setup);
    expect(file).toBe(out);
    expect(fileMode(out)).toBe(0o600);
    expect(JSON.parse(result.stdout).new_key).toMatchObject({ api_key: keyId, name: expect.stringMatching(tagged(`${setup.name}-next`)) });
    expect(seen().map((r) => `${r.method} ${r.path}`)).toContain('POST /trade-api/v2/api_keys');
    const upload = sandbox.server.requests.find((r) => r.method === 'POST' && r.body.includes(`${setup.name}-next`))!;
    expect(JSON.parse(upload.body).public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(upload.body).not.toMatch(/PRIVATE KEY/);
    expect(exists(setup.oldId)).toBe(false);
  });

  it('--keep-old switches to the new key and leaves the old key and its file alone', async () => {
    const setup = profileWithKey(sandbox);
    const result = await rotate(setup, [...ROTATE_JSON, '--keep-old']);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.old_key_deleted).toBe(false);
    expect(profileKey(setup).keyId).toBe(report.new_key.api_key);
    expect(exists(setup.oldId)).toBe(true);
    expect(existsSync(setup.oldFile)).toBe(true);
    expect(keysOfTest(sandbox, setup)).toHaveLength(2);
  });

  it('--dry-run prints the plan and sends nothing, not even the preflight', async () => {
    const setup = profileWithKey(sandbox);
    const seen = requestsFrom(sandbox);
    const result = await rotate(setup, ['--dry-run', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(seen()).toEqual([]);
    const plan = JSON.parse(result.stdout);
    expect(plan).toMatchObject({ dry_run: true, profile: 'ci', old_key: { api_key: setup.oldId, private_key_file: setup.oldFile } });
    expect(plan.steps.map((step: { step: string }) => step.step)).toEqual([
      'preflight',
      'mint',
      'store',
      'switch',
      'verify',
      'delete-old',
      'remove-old-file',
    ]);
    expect(existsSync(setup.journal)).toBe(false);
    expect(profileKey(setup).keyId).toBe(setup.oldId);
  });

  it('needs --yes without a terminal: exit 3, nothing sent', async () => {
    const setup = profileWithKey(sandbox);
    const seen = requestsFrom(sandbox);
    const result = await rotate(setup, []);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('confirmation needed');
    expect(result.stderr).toContain('pass --yes');
    expect(seen()).toEqual([]);
    expect(existsSync(setup.journal)).toBe(false);
  });

  it('a rotation in progress blocks another (exit 2) until it is resumed or aborted', async () => {
    const setup = profileWithKey(sandbox);
    const crashed = await rotate(setup, ROTATE_JSON, { env: { [CRASH_ENV]: 'stored' } });
    expect(crashed.exitCode).not.toBe(0);
    const seen = requestsFrom(sandbox);
    const blocked = await rotate(setup, ROTATE_JSON);
    expect(blocked.exitCode).toBe(2);
    expect(blocked.stderr).toContain('a rotation of profile "ci" is in progress');
    expect(blocked.stderr).toContain('at step "stored"');
    expect(blocked.stderr).toContain('trident keys rotate --resume');
    expect(seen()).toEqual([]);
    const dryRun = await rotate(setup, ['--resume', '--dry-run', '-o', 'json']);
    expect(dryRun.exitCode, dryRun.stderr).toBe(0);
    expect(JSON.parse(dryRun.stdout).steps.map((step: { step: string }) => step.step)).toEqual([
      'switch',
      'verify',
      'delete-old',
      'remove-old-file',
    ]);
    const abortPlan = await rotate(setup, ['--abort', '--dry-run', '-o', 'json']);
    expect(JSON.parse(abortPlan.stdout).steps.map((step: { step: string }) => step.step)).toEqual(['delete-new', 'remove-new-files']);
    expect(seen()).toEqual([]);
    const aborted = await rotate(setup, ['--abort', ...ROTATE_JSON]);
    expect(aborted.exitCode, aborted.stderr).toBe(0);
    expect(JSON.parse(aborted.stdout).outcome).toBe('aborted');
    await expectUndone(sandbox, setup);
  });

  it('rolls back when the new key fails verification: old key back in the profile, new key deleted', async () => {
    const setup = profileWithKey(sandbox);
    sandbox.control.rejectNewKeys(true);
    const result = await rotate(setup, ROTATE_JSON);
    expect(result.exitCode).toBe(4);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ outcome: 'rolled back', private_key_file: null, old_key_deleted: false });
    expect(report.steps.map((step: { step: string; status: string }) => `${step.step}:${step.status}`)).toEqual([
      'preflight:done',
      'mint:done',
      'store:done',
      'switch:done',
      'verify:failed',
      'restore-profile:done',
      'delete-new:done',
      'remove-new-files:done',
    ]);
    expect(result.stderr).toContain(`the new key ${report.new_key.api_key} failed verification`);
    expect(result.stderr).toContain('the rotation was rolled back: profile "ci" uses the old key');
    expect(exists(report.new_key.api_key)).toBe(false);
    expect(existsSync(join(setup.configDir, 'keys', `${report.new_key.api_key}.pem`))).toBe(false);
    await expectUndone(sandbox, setup);
  });

  it('says so when the old key cannot be deleted: both keys valid, exit 8', async () => {
    const setup = profileWithKey(sandbox);
    oldKeyUndeletable(sandbox, setup);
    const result = await rotate(setup, ROTATE_JSON);
    expect(result.exitCode).toBe(8);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ outcome: 'rotated', old_key_deleted: false });
    expect(report.warnings[0]).toContain(`the old key ${setup.oldId} was not deleted`);
    expect(report.warnings[0]).toContain('both keys are valid');
    expect(result.stderr).toContain(`could not be deleted`);
    expect(result.stderr).toContain(`trident keys delete ${setup.oldId}`);
    expect(exists(setup.oldId)).toBe(true);
    expect(exists(report.new_key.api_key)).toBe(true);
    expect(profileKey(setup).keyId).toBe(report.new_key.api_key);
    expect(existsSync(setup.oldFile)).toBe(true);
    expect(existsSync(setup.journal)).toBe(false);
  });

  it('rotates a key from environment variables without a profile: the report gives the new id and file', async () => {
    const setup = profileWithKey(sandbox);
    const configDir = tempConfigDir();
    const env = { TRIDENT_KEYS_URL: sandbox.url, TRIDENT_KEY_ID: setup.oldId, TRIDENT_PRIVATE_KEY_FILE: setup.oldFile };
    const result = await runCli(['keys', 'rotate', ...ROTATE_JSON], { configDir, env });
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ outcome: 'rotated', profile: null, old_key_deleted: true });
    expect(report.steps.find((step: { step: string }) => step.step === 'switch')).toMatchObject({ status: 'skipped' });
    const newId = report.new_key.api_key;
    expect(report.private_key_file).toBe(join(configDir, 'keys', `${newId}.pem`));
    expect(keysOfTest(sandbox, setup).map((key) => key.api_key)).toEqual([newId]);
    expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
    // the old file lives in another config dir: not trident's to remove here
    expect(existsSync(setup.oldFile)).toBe(true);
    const list = await runCli(['keys', 'list'], {
      configDir,
      env: { ...env, TRIDENT_KEY_ID: newId, TRIDENT_PRIVATE_KEY_FILE: report.private_key_file },
    });
    expect(list.exitCode, list.stderr).toBe(0);
  });

  it('takes the PEM from TRIDENT_PRIVATE_KEY, and --keep-old keeps that key', async () => {
    const setup = profileWithKey(sandbox);
    const configDir = tempConfigDir();
    const env = { TRIDENT_KEYS_URL: sandbox.url, TRIDENT_KEY_ID: setup.oldId, TRIDENT_PRIVATE_KEY: readFileSync(setup.oldFile, 'utf8') };
    const result = await runCli(['keys', 'rotate', ...ROTATE_JSON, '--keep-old', '--debug'], { configDir, env });
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ profile: null, old_key: { private_key_file: null }, old_key_deleted: false });
    expect(exists(setup.oldId)).toBe(true);
    expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
  });

  it('refuses what it cannot do before sending anything (exit 2)', async () => {
    const setup = profileWithKey(sandbox);
    const seen = requestsFrom(sandbox);
    const cases: Array<[string[], string, Record<string, string>?]> = [
      [['--out', '-'], '--out - is not available'],
      [['--out', setup.oldFile], 'already exists'],
      [['--out', setup.oldFile], 'rotate never replaces a file'],
      // (--resume with nothing to resume exits 0: keys-rotate-hooks.test.ts)
      [['--abort'], 'no rotation of profile "ci" is in progress: nothing to abort'],
      [[], 'but its private key from TRIDENT_PRIVATE_KEY_FILE', { TRIDENT_PRIVATE_KEY_FILE: setup.oldFile }],
    ];
    for (const [args, message, env] of cases) {
      const result = await rotate(setup, [...ROTATE_JSON, ...args], { env });
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(seen()).toEqual([]);
    expect(existsSync(setup.journal)).toBe(false);
  });

  it("takes a --name another key has: the new key's tag keeps them apart, and the other key is never touched", async () => {
    const setup = profileWithKey(sandbox);
    const taken = sandbox.control.addKey({ name: `${setup.name}-taken`, publicKeyPem: sandbox.bootstrap.publicKeyPem });
    const result = await rotate(setup, [...ROTATE_JSON, '--name', taken.name]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).new_key.name).toMatch(tagged(taken.name));
    expect(exists(taken.api_key)).toBe(true);
  });
});
