import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { PRIVATE_KEY_MATERIAL, fileMode, requestsFrom, runKeys, sandboxEnv, startSandbox } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

describe('keys list', () => {
  it('prints a table with id, name, scopes, subaccount, created', async () => {
    sandbox.control.addKey({ name: 'desk-7', publicKeyPem: sandbox.bootstrap.publicKeyPem, scopes: ['read'], subaccount: 7 });
    const result = await runKeys(sandbox, ['list', '-o', 'table']);
    expect(result.exitCode).toBe(0);
    const header = result.stdout.split('\n')[1]!;
    expect(header).toMatch(/id.*name.*scopes.*subaccount.*created/);
    expect(result.stdout).toContain('sandbox-bootstrap');
    expect(result.stdout).toMatch(/desk-7 +│ read +│ 7 /);
  });

  it("shows created in the terminal's time zone (TZ) with its offset and the age in words; tsv keeps the service's UTC", async () => {
    const key = sandbox.control.addKey({ name: 'zoned', publicKeyPem: sandbox.bootstrap.publicKeyPem });
    const env = { TZ: 'Asia/Kolkata' };
    const created = new Date(new Date(key.created_ts!).getTime() + 5.5 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const table = await runKeys(sandbox, ['list', '-o', 'table', '--columns', 'name,created,age'], { env });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`│ zoned +│ ${created} \\+05:30 │ (under a minute|1 minute) │`));
    const tsv = await runKeys(sandbox, ['list', '--columns', 'name,created_ts'], { env });
    expect(tsv.stdout).toContain(`zoned\t${key.created_ts}\n`);
  });

  it('prints the ApiKey fields as JSON, and tsv when piped', async () => {
    const json = await runKeys(sandbox, ['list', '--json']);
    expect(json.exitCode).toBe(0);
    const keys = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(keys.find((key) => key.api_key === sandbox.bootstrap.keyId)).toEqual({
      api_key: sandbox.bootstrap.keyId,
      name: 'sandbox-bootstrap',
      given_name: 'sandbox-bootstrap',
      scopes: ['read', 'write'],
      created_ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      subaccount: null,
      in_use: true,
      age_seconds: expect.any(Number),
    });
    const tsv = await runKeys(sandbox, ['list']);
    expect(tsv.stdout.split('\n')[0]).toBe('api_key\tname\tgiven_name\tscopes\tcreated_ts\tsubaccount\tin_use\tage_seconds');
  });

  it("--columns takes the fields or the table's labels in every format; anything else is exit 2 and prints nothing", async () => {
    const byLabel = await runKeys(sandbox, ['list', '--columns', 'id,name,in use', '-o', 'tsv']);
    expect(byLabel.exitCode, byLabel.stderr).toBe(0);
    const [head, ...rows] = byLabel.stdout.trimEnd().split('\n');
    expect(head).toBe('api_key\tname\tin_use');
    expect(rows).toContainEqual(`${sandbox.bootstrap.keyId}\tsandbox-bootstrap\ttrue`);
    const byField = await runKeys(sandbox, ['list', '--columns', 'api_key,in_use', '-o', 'table']);
    expect(byField.stdout).toMatch(/id +│ in use/);
    expect(byField.stdout).toContain(sandbox.bootstrap.keyId);
    const bad = await runKeys(sandbox, ['list', '--columns', 'id,nmae', '-o', 'csv']);
    expect(bad).toMatchObject({ exitCode: 2, stdout: '' });
    expect(bad.stderr).toBe(
      'trident: unknown column in --columns: nmae\nhint: did you mean name? the columns here: api_key, name, given_name, scopes, created_ts, subaccount, in_use, age_seconds (or as the table calls them: id, created, age, in use)\n',
    );
  });

  it('shows names as given: the tag trident adds stands apart in tables, and JSON has given_name to filter on', async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'deploy', '-o', 'json', '--out', join(dirname(configDir), 'deploy.pem')], {
      configDir,
    });
    expect(made.exitCode, made.stderr).toBe(0);
    const { api_key: id, name, given_name: given } = JSON.parse(made.stdout) as Record<string, string>;
    expect(given).toBe('deploy');
    const tag = name!.slice('deploy~'.length);
    expect(name).toBe(`deploy~${tag}`);
    expect(tag).toMatch(/^[0-9a-f]{8}$/);
    const table = await runKeys(sandbox, ['list', '-o', 'table'], { configDir, env: { COLUMNS: '200' } });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[1]).toMatch(/id +│ name +│ tag +│ scopes/);
    expect(table.stdout).toMatch(new RegExp(`│ ${id} │ deploy +│ ${tag} │`));
    expect(table.stdout).not.toContain(`deploy~${tag}`);
    const found = await runKeys(sandbox, ['list', '--jq', '.[] | select(.given_name == "deploy") | .api_key'], { configDir });
    expect(found.stdout).toContain(`${id}\n`);
  });

  it('--no-header: a script reads rows alone', async () => {
    const result = await runKeys(sandbox, ['list', '--no-header', '--columns', 'api_key,name']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toContainEqual(`${sandbox.bootstrap.keyId}\tsandbox-bootstrap`);
    expect(result.stdout).not.toContain('api_key');
  });

  it('filters by FCM subtrader and carries fcm_subtrader_id', async () => {
    const bound = sandbox.control.addKey({ name: 'fcm', publicKeyPem: sandbox.bootstrap.publicKeyPem, fcmSubtraderId: 'u9_desk' });
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['list', '--fcm-subtrader-id', 'u9_desk', '-o', 'ndjson']);
    expect(result.exitCode).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([{ ...bound, given_name: 'fcm', fcm_subtrader_id: 'u9_desk', in_use: false, age_seconds: expect.any(Number) }]);
    expect(sandbox.server.requests.at(-1)!.query).toBe('?fcm_subtrader_id=u9_desk');
    expect(seen()).toHaveLength(1);
  });

  it('an empty list in csv and tsv still prints the header line', async () => {
    for (const format of ['csv', 'tsv'] as const) {
      const result = await runKeys(sandbox, ['list', '--fcm-subtrader-id', 'u9_nobody', '-o', format]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toBe(
        `${['api_key', 'name', 'given_name', 'scopes', 'created_ts', 'subaccount', 'in_use', 'age_seconds'].join(format === 'csv' ? ',' : '\t')}\n`,
      );
    }
  });

  it('refuses a malformed FCM subtrader id before any request', async () => {
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['list', '--fcm-subtrader-id', 'nounderscore']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('<user_id>_<suffix>');
    expect(seen()).toEqual([]);
  });

  it('works with any base URL spelling: trailing slash, bare origin', async () => {
    for (const url of [`${sandbox.url}/`, sandbox.server.origin, `${sandbox.server.origin}/`]) {
      const result = await runKeys(sandbox, ['list', '--url', url, '-o', 'json']);
      expect(result.exitCode, result.stderr).toBe(0);
    }
    expect(sandbox.server.requests.slice(-3).map((r) => r.path)).toEqual(Array(3).fill('/trade-api/v2/api_keys'));
  });

  it('signs with the PEM from TRIDENT_PRIVATE_KEY, even with literal \\n escapes', async () => {
    const pem = readFileSync(sandbox.bootstrap.privateKeyFile, 'utf8').trim().replace(/\n/g, '\\n');
    const result = await runCli(['keys', 'list', '-o', 'json'], {
      env: { TRIDENT_KEYS_URL: sandbox.url, TRIDENT_KEY_ID: sandbox.bootstrap.keyId, TRIDENT_PRIVATE_KEY: pem },
    });
    expect(result.exitCode, result.stderr).toBe(0);
  });

  it('reads url, key id and key file from the profile', async () => {
    const configDir = tempConfigDir();
    const env = sandboxEnv(sandbox);
    await runCli(['--profile', 'sb', 'config', 'set', 'keys.url', env.TRIDENT_KEYS_URL!], { configDir });
    await runCli(['--profile', 'sb', 'config', 'set', 'keys.keyId', env.TRIDENT_KEY_ID!], { configDir });
    await runCli(['--profile', 'sb', 'config', 'set', 'keys.privateKeyFile', env.TRIDENT_PRIVATE_KEY_FILE!], { configDir });
    const result = await runCli(['--profile', 'sb', 'keys', 'list', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
  });
});

describe('age and the key in use', () => {
  it('marks the key signing the request, and gives ages from created_ts', async () => {
    const other = sandbox.control.addKey({ name: 'aged', publicKeyPem: sandbox.bootstrap.publicKeyPem });
    const result = await runKeys(sandbox, ['list', '-o', 'json', '--key-id', other.api_key]);
    expect(result.exitCode, result.stderr).toBe(0);
    const keys = JSON.parse(result.stdout) as Array<{ api_key: string; in_use: boolean; age_seconds: number }>;
    expect(keys.filter((key) => key.in_use).map((key) => key.api_key)).toEqual([other.api_key]);
    for (const key of keys) expect(key.age_seconds).toBeGreaterThanOrEqual(0);
    expect(keys.find((key) => key.api_key === other.api_key)!.age_seconds).toBeLessThan(120);
  });

  it("without created_ts: ages from trident's record (a key it made, the key it saw in use), null for the rest; the record is 0600", async () => {
    const configDir = tempConfigDir();
    const made = await runKeys(sandbox, ['generate', '--name', 'made-here', '-o', 'json'], { configDir });
    expect(made.exitCode, made.stderr).toBe(0);
    const madeId = JSON.parse(made.stdout).api_key;
    const stranger = sandbox.control.addKey({ name: 'stranger', publicKeyPem: sandbox.bootstrap.publicKeyPem }).api_key;
    const keys = sandbox.control.listKeys().map(({ created_ts: _, ...key }) => key);
    sandbox.server.faults.add({
      method: 'GET',
      path: /\/api_keys$/,
      fault: { kind: 'body', status: 200, contentType: 'application/json', payload: JSON.stringify({ api_keys: keys }) },
    });
    const result = await runKeys(sandbox, ['list', '-o', 'json'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    const listed = new Map(
      (JSON.parse(result.stdout) as Array<{ api_key: string; in_use: boolean; age_seconds: number | null; created_ts: unknown }>).map(
        (key) => [key.api_key, key],
      ),
    );
    expect(listed.get(madeId)).toMatchObject({ created_ts: null, in_use: false, age_seconds: expect.any(Number) });
    expect(listed.get(sandbox.bootstrap.keyId)).toMatchObject({ created_ts: null, in_use: true, age_seconds: expect.any(Number) });
    expect(listed.get(stranger)).toMatchObject({ in_use: false, age_seconds: null });
    const record = JSON.parse(readFileSync(join(configDir, 'key-ages.json'), 'utf8'));
    expect(record[madeId].how).toBe('made');
    expect(record[sandbox.bootstrap.keyId].how).toBe('seen');
    expect(fileMode(join(configDir, 'key-ages.json'))).toBe(0o600);
  });

  it('the key-age record is changed under its lock: a run waits for another holding it, and both changes stay', async () => {
    const configDir = tempConfigDir();
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const ages = join(configDir, 'key-ages.json');
    // Another trident (this test, alive) holds the settings lock, under which the record is changed: it read the
    // record (empty) and will write it back with its own entry in a second.
    const lock = join(configDir, 'settings.json.lock');
    writeFileSync(lock, `${process.pid}\n`, { mode: 0o600 });
    const started = Date.now();
    const generate = runKeys(
      sandbox,
      ['generate', '--name', 'behind-a-lock', '-o', 'json', '--out', join(dirname(configDir), 'behind-a-lock.pem')],
      { configDir },
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const theirs = { since: new Date().toISOString(), how: 'made' };
    writeFileSync(ages, JSON.stringify({ 'their-key': theirs }), { mode: 0o600 });
    rmSync(lock);
    const run = await generate;
    expect(run.exitCode, run.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(Date.now() - started).toBeLessThan(25_000);
    const record = JSON.parse(readFileSync(ages, 'utf8')) as Record<string, { how: string }>;
    expect(record['their-key']).toEqual(theirs);
    expect(record[JSON.parse(run.stdout).api_key]?.how).toBe('made');
    expect(existsSync(lock)).toBe(false);
  });

  it('shows age and "in use" columns in the table', async () => {
    const result = await runKeys(sandbox, ['list', '-o', 'table']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[1]).toMatch(/created.*age.*in use/);
    expect(result.stdout).toMatch(/sandbox-bootstrap .*│ (under a minute|\d+ minutes?) +│ yes/);
  });
});

describe('credentials and refusals', () => {
  it('exits 4 with a hint when no key id is configured', async () => {
    const result = await runCli(['keys', 'list'], { env: { TRIDENT_KEYS_URL: sandbox.url } });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('trident: no key id configured');
    expect(result.stderr).toContain('trident config set keys.keyId');
  });

  it('refuses http:// to a host that is not loopback (exit 2), sending nothing', async () => {
    const result = await runKeys(sandbox, ['list', '--url', 'http://exchange.example/trade-api/v2']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('refusing to send credentials in clear text');
  });

  it('exits 4 with the service code and a hint when the signature does not verify (wrong key file)', async () => {
    const other = await startSandbox();
    try {
      const seen = requestsFrom(sandbox);
      const result = await runKeys(sandbox, ['list', '--private-key', other.bootstrap.privateKeyFile]);
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain('keys service answered 401: INCORRECT_API_KEY_SIGNATURE');
      expect(result.stderr).toContain(
        `hint: the signature did not verify: check that key file ${other.bootstrap.privateKeyFile} is the private key of key ${sandbox.bootstrap.keyId}`,
      );
      expect(seen()).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('exits 4 when the service rejects the key (tampered signature)', async () => {
    const victim = sandbox.control.addKey({ name: 'victim', publicKeyPem: sandbox.bootstrap.publicKeyPem });
    sandbox.control.rejectKey(victim.api_key);
    const result = await runKeys(sandbox, ['list', '--key-id', victim.api_key]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('INCORRECT_API_KEY_SIGNATURE');
  });

  it('points at the clock when the service finds the timestamp expired', async () => {
    const skewed = await startSandbox({ now: () => Date.now() + 10 * 60_000 });
    try {
      const result = await runKeys(skewed, ['list']);
      expect(result.exitCode).toBe(4);
      expect(result.stderr).toContain('header_timestamp_expired');
      expect(result.stderr).toContain("check this machine's clock");
    } finally {
      await skewed.close();
    }
  });

  it('explains a 403 for a key restricted to a subaccount', async () => {
    const restricted = sandbox.control.addKey({ name: 'sub', publicKeyPem: sandbox.bootstrap.publicKeyPem, subaccount: 2 });
    const result = await runKeys(sandbox, ['list', '--key-id', restricted.api_key]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('restricted to a subaccount');
  });

  it('never logs key material, even with --debug', async () => {
    const result = await runKeys(sandbox, ['list', '--debug']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('debug: > GET');
    expect(result.stderr).not.toMatch(PRIVATE_KEY_MATERIAL);
    expect(result.stderr).toContain('"KALSHI-ACCESS-SIGNATURE":"[redacted]"');
  });
});

describe('a key file others can read', () => {
  it('is warned about, except under -q (nothing on stderr but errors)', async () => {
    const file = join(dirname(tempConfigDir()), 'world-readable.pem');
    copyFileSync(sandbox.bootstrap.privateKeyFile, file);
    chmodSync(file, 0o644);
    const loud = await runKeys(sandbox, ['list', '--private-key', file, '-o', 'json']);
    expect(loud.exitCode, loud.stderr).toBe(0);
    expect(loud.stderr).toBe(`warning: private key file ${file} can be read by other users (mode 644); chmod 600 it\n`);
    const quiet = await runKeys(sandbox, ['list', '--private-key', file, '-o', 'json', '-q']);
    expect(quiet.exitCode).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});
