import { createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { PRIVATE_KEY_MATERIAL, fileMode, keyFiles, keysNamed, requestsFrom, runKeys, tagged } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox({ fcmSubtradersWithoutCap: ['u7_nocap'], resetAfterEach: true });

describe('keys generate', () => {
  it('prints one flat row when piped: the id under api_key, as keys list has it', async () => {
    const result = await runKeys(sandbox, ['generate', '--name', 'flat-row', '--scopes', 'read']);
    expect(result.exitCode, result.stderr).toBe(0);
    const [header, row, ...rest] = result.stdout.trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(header!.split('\t')).toEqual(['api_key', 'name', 'given_name', 'scopes', 'created_ts', 'subaccount', 'private_key_file']);
    const [id, name, givenName, scopes] = row!.split('\t');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(name).toMatch(tagged('flat-row'));
    expect(givenName).toBe('flat-row');
    expect(scopes).toBe('read');
  });

  it('stores the private key 0600 under <config dir>/keys/<api_key>.pem and prints the result, never the key', async () => {
    const configDir = tempConfigDir();
    const result = await runKeys(sandbox, ['generate', '--name', 'ci', '--scopes', 'read', '--debug', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout);
    const id = output.api_key as string;
    expect(output).toEqual({
      api_key: id,
      name: expect.stringMatching(tagged('ci')),
      given_name: 'ci',
      scopes: ['read'],
      created_ts: expect.any(String),
      subaccount: null,
      private_key_file: join(configDir, 'keys', `${id}.pem`),
    });
    expect(fileMode(output.private_key_file)).toBe(0o600);
    expect(fileMode(dirname(output.private_key_file))).toBe(0o700);
    expect(createPrivateKey(readFileSync(output.private_key_file, 'utf8')).asymmetricKeyType).toBe('rsa');
    expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    expect(result.stderr).toContain('debug: < 201');
    // the stored key is the new key's private half: it signs requests the service accepts
    const withNewKey = await runKeys(sandbox, ['list', '--key-id', id, '--private-key', output.private_key_file]);
    expect(withNewKey.exitCode, withNewKey.stderr).toBe(0);
  });

  it('keeps the private key out of every output format', async () => {
    const formats = ['table', 'ndjson', 'csv', 'tsv'];
    const results = await Promise.all(formats.map((format) => runKeys(sandbox, ['generate', '--name', `fmt-${format}`, '-o', format])));
    results.forEach((result, index) => {
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toContain(`fmt-${formats[index]}`);
      expect(result.stdout + result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    });
  });

  it('writes the PEM to stdout with --out -, and only then; the id goes to stderr', async () => {
    const configDir = tempConfigDir();
    const result = await runKeys(sandbox, ['generate', '--name', 'piped', '--out', '-', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n[\s\S]+\n-----END RSA PRIVATE KEY-----\n$/);
    expect(createPrivateKey(result.stdout).asymmetricKeyType).toBe('rsa');
    const id = keysNamed(sandbox, 'piped')[0]!.api_key;
    expect(result.stderr).toContain(`generated key ${id}`);
    expect(result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    expect(existsSync(join(configDir, 'keys'))).toBe(false);
  });

  it('writes to --out, refuses an existing file without --force (no request sent), replaces it with --force', async () => {
    const dir = dirname(tempConfigDir());
    const out = join(dir, 'key.pem');
    writeFileSync(out, 'precious');
    const seen = requestsFrom(sandbox);
    const refused = await runKeys(sandbox, ['generate', '--name', 'o', '--out', out]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`${out} already exists`);
    expect(seen()).toEqual([]);
    expect(readFileSync(out, 'utf8')).toBe('precious');

    const forced = await runKeys(sandbox, ['generate', '--name', 'o', '--out', out, '--force', '-o', 'json']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout).private_key_file).toBe(out);
    expect(readFileSync(out, 'utf8')).toContain('PRIVATE KEY');
    expect(fileMode(out)).toBe(0o600);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses an --out it cannot write before calling the service', async () => {
    const dir = dirname(tempConfigDir());
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'file'), '');
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['generate', '--name', 'nowhere', '--out', join(dir, 'file', 'key.pem')]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`cannot write to ${join(dir, 'file')}`);
    expect(seen()).toEqual([]);
  });

  it('--use with a subaccount key is refused before anything is sent (such a key cannot manage keys)', async () => {
    const configDir = tempConfigDir();
    const seen = requestsFrom(sandbox);
    for (const command of ['generate', 'create']) {
      const result = await runKeys(sandbox, [command, '--name', 'desk-3', '--subaccount', '3', '--use'], { configDir });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(
        /^trident: --use would point the profile at a key restricted to subaccount 3, which cannot manage API keys\nhint: /,
      );
    }
    expect(seen()).toEqual([]);
    expect((await runCli(['config', 'get', 'keys.keyId'], { configDir })).exitCode).toBe(5);
  });

  it('--use with a read-only key says what the profile can no longer do', async () => {
    const result = await runKeys(sandbox, ['generate', '--name', 'reader', '--scopes', 'read', '--use', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const { api_key: id } = JSON.parse(result.stdout);
    expect(result.stderr).toContain(
      `warning: key ${id} is read-only: with it, profile "default" can list keys but not create, delete or rotate them`,
    );
  });

  it('--use points the profile at the new key; a later list needs nothing but --profile', async () => {
    const configDir = tempConfigDir();
    await runCli(['--profile', 'ci', 'config', 'set', 'keys.url', sandbox.url], { configDir });
    const result = await runKeys(sandbox, ['--profile', 'ci', 'generate', '--name', 'next', '--use', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.used).toBe('ci');
    expect(result.stderr).toContain(`profile "ci" now uses key ${output.api_key}`);
    expect(result.stderr).toContain('TRIDENT_KEY_ID, TRIDENT_PRIVATE_KEY_FILE set in the environment take precedence');
    const keyId = await runCli(['--profile', 'ci', 'config', 'get', 'keys.keyId'], { configDir });
    expect(keyId.stdout.trim()).toBe(output.api_key);
    const keyFile = await runCli(['--profile', 'ci', 'config', 'get', 'keys.privateKeyFile'], { configDir });
    expect(keyFile.stdout.trim()).toBe(output.private_key_file);
    const seen = requestsFrom(sandbox);
    const list = await runCli(['--profile', 'ci', 'keys', 'list', '-o', 'json'], { configDir });
    expect(list.exitCode, list.stderr).toBe(0);
    expect(seen()).toHaveLength(1);
    expect(sandbox.server.requests.at(-1)!.headers['kalshi-access-key']).toBe(output.api_key);
  });

  it('refuses --use with --out - before any request', async () => {
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['generate', '--name', 'x', '--use', '--out', '-']);
    expect(result.exitCode).toBe(2);
    expect(seen()).toEqual([]);
  });

  it("shows the service's warning on stderr and keeps it in the JSON", async () => {
    const result = await runKeys(sandbox, ['generate', '--name', 'fcm', '--fcm-subtrader-id', 'u7_nocap', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.warning).toContain('no initial-margin cap');
    expect(output.fcm_subtrader_id).toBe('u7_nocap');
    expect(result.stderr).toContain(`warning: the keys service says: ${output.warning}`);
  });

  it('checks every input rule before any request (exit 2, saying what is wrong in the words of the flags)', async () => {
    const cases: Array<[string[], string]> = [
      [[], '--name is required'],
      [['--name', ' '], '--name is required'],
      [['--name', 'n', '--scopes', 'write'], 'write scope requires read'],
      [['--name', 'n', '--scopes', 'read,trade'], 'scopes may only be read, write'],
      [['--name', 'n', '--subaccount', '64'], 'integer from 0 to 63'],
      [['--name', 'n', '--subaccount', 'two'], 'integer from 0 to 63'],
      [['--name', 'n', '--subaccount', '1', '--fcm-subtrader-id', 'u1_a'], '--subaccount and --fcm-subtrader-id cannot be used together'],
      [['--name', 'n', '--fcm-subtrader-id', 'u1'], '<user_id>_<suffix>'],
    ];
    const seen = requestsFrom(sandbox);
    const results = await Promise.all(cases.map(([args]) => runKeys(sandbox, ['generate', ...args])));
    results.forEach((result, index) => {
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(cases[index]![1]);
      // Said in the user's words: no validator wording.
      expect(result.stderr).not.toContain('rule:');
    });
    expect(seen()).toEqual([]);
  });

  it('does not repeat a generate whose answer never came; the key it made, which nobody holds, is found and deleted', async () => {
    const configDir = tempConfigDir();
    sandbox.server.faults.add({ method: 'POST', path: /generate$/, fault: { kind: 'reset', afterProcessing: true } });
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['generate', '--name', 'lost'], { configDir });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(/trident: the generate request for key "lost~[0-9a-f]{8}" failed \(connection to /);
    expect(result.stderr).toMatch(/a check found: deleted key [0-9a-f-]+, whose private key never arrived\nhint: nothing is left behind/);
    const sent = seen();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(sent.map((r) => r.method)).toEqual(['POST', 'GET', 'DELETE']);
    expect(keysNamed(sandbox, 'lost')).toEqual([]);
    expect(keyFiles(configDir)).toEqual([]);
  });
});
