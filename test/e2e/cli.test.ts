import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';

describe('trident binary', () => {
  it('prints its version', async () => {
    const result = await runCli(['--version']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  it('lists the six groups in --help with examples', async () => {
    const result = await runCli(['--help']);
    expect(result.exitCode).toBe(0);
    for (const group of ['keys', 'time', 'catalog', 'config', 'sandbox', 'completion']) {
      expect(result.stdout).toMatch(new RegExp(`^  ${group} `, 'm'));
    }
    expect(result.stdout).toContain('Examples:');
  });

  it('lists the global options once: in trident --help and trident help options; a command points there', async () => {
    const root = await runCli(['--help']);
    const options = await runCli(['help', 'options']);
    expect(options.exitCode).toBe(0);
    for (const flag of [
      '--profile <name>',
      '-o, --output <format>',
      '--jq <expression>',
      '--columns <names>',
      '--no-header',
      '--timeout <seconds>',
    ]) {
      expect(root.stdout).toContain(flag);
      expect(options.stdout).toContain(flag);
    }
    const command = await runCli(['keys', 'list', '--help']);
    expect(command.stdout).not.toContain('--timeout <seconds>');
    expect(command.stdout).toContain('Global options (--profile, -o, --jq, --columns, -q, ...): trident help options\n');
    expect(command.stdout.trimEnd().split('\n').length).toBeLessThan(40);
  });

  it('exits 2 on an unknown command and suggests the right one', async () => {
    const result = await runCli(['keyz']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("unknown command 'keyz'");
    expect(result.stderr).toContain('keys');
  });

  it('exits 2 on an unknown option and on a bad global value', async () => {
    expect((await runCli(['config', 'list', '--frobnicate'])).exitCode).toBe(2);
    expect((await runCli(['config', 'list', '-o', 'xml'])).exitCode).toBe(2);
    expect((await runCli(['config', 'list', '--timeout', 'soon'])).exitCode).toBe(2);
    expect((await runCli(['config', 'list', '--profile', '../etc'])).exitCode).toBe(2);
  });

  it('help environment lists every variable trident reads, and those it sets for hooks', async () => {
    const result = await runCli(['help', 'environment']);
    expect(result.exitCode, result.stderr).toBe(0);
    for (const name of [
      'TRIDENT_CONFIG_DIR',
      'TRIDENT_KEY_ID',
      'TRIDENT_TIME_TOKEN',
      'TRIDENT_CREDENTIAL_STORE',
      'HTTPS_PROXY',
      'TRIDENT_DEPLOY_STEP',
    ])
      expect(result.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(result.stderr).toBe('');
    const unknown = await runCli(['help', 'environmnet']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toMatch(/^trident: unknown command 'environmnet'\n/);
  });

  it('a usage error ends with the usage line of its command, after the did-you-mean', async () => {
    const missing = await runCli(['keys', 'delete']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe("trident: missing required argument 'api_key'\nhint: usage: trident keys delete [options] <api_key...>\n");
    const typo = await runCli(['catalog', 'products', '--serch', 'milk']);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toBe("trident: unknown option '--serch'\nhint: did you mean --search? usage: trident catalog products [options]\n");
    const choice = await runCli(['time', 'projects', '--status', 'gone']);
    expect(choice.exitCode).toBe(2);
    expect(choice.stderr).toMatch(
      /^trident: option '--status <status>' argument 'gone' is invalid\. .*\nhint: usage: trident time projects list \[options\]\n$/,
    );
    expect(missing.stdout + typo.stdout + choice.stdout).toBe('');
  });

  it('an unknown setting or column gets a did-you-mean, and nothing is written', async () => {
    const configDir = tempConfigDir();
    const setting = await runCli(['config', 'set', 'keys.ur', 'https://x.test'], { configDir });
    expect(setting.exitCode).toBe(2);
    expect(setting.stderr).toMatch(/^trident: unknown setting "keys\.ur"\nhint: did you mean keys\.url\? settings are: keys\.url, /);
    expect(() => statSync(join(configDir, 'settings.json'))).toThrow();
    for (const output of ['table', 'json', 'ndjson', 'csv']) {
      const column = await runCli(['config', 'list', '-o', output, '--columns', 'key,vlaue'], { configDir });
      expect(column.exitCode, output).toBe(2);
      expect(column.stderr).toBe(
        'trident: unknown column in --columns: vlaue\nhint: did you mean value? the columns here: key, value, source, origin\n',
      );
      expect(column.stdout, output).toBe('');
    }
  });

  it('--columns picks the fields of json and ndjson output too, in its order', async () => {
    const configDir = tempConfigDir();
    const json = await runCli(['config', 'list', '-o', 'json', '--columns', 'source,key'], { configDir });
    expect(json.exitCode, json.stderr).toBe(0);
    const records = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(records.length).toBeGreaterThan(3);
    for (const record of records) expect(Object.keys(record)).toEqual(['source', 'key']);
    const ndjson = await runCli(['config', 'list', '-o', 'ndjson', '--columns', 'key'], { configDir });
    expect(
      ndjson.stdout
        .trimEnd()
        .split('\n')
        .map((line) => Object.keys(JSON.parse(line) as object)),
    ).toEqual(records.map(() => ['key']));
  });

  it('round-trips config set/get in a 0600 file inside a 0700 directory', async () => {
    const configDir = tempConfigDir();
    const set = await runCli(['config', 'set', 'catalog.url', 'http://127.0.0.1:8000'], { configDir });
    expect(set.exitCode).toBe(0);
    const get = await runCli(['config', 'get', 'catalog.url'], { configDir });
    expect(get).toMatchObject({ exitCode: 0, stdout: 'http://127.0.0.1:8000\n' });
    expect(statSync(join(configDir, 'settings.json')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
  });

  it('config get and path print the bare value, or an object with -o json', async () => {
    const configDir = tempConfigDir();
    await runCli(['config', 'set', 'catalog.url', 'http://127.0.0.1:8000'], { configDir });
    expect((await runCli(['config', 'get', 'catalog.url'], { configDir })).stdout).toBe('http://127.0.0.1:8000\n');
    const json = await runCli(['config', 'get', 'catalog.url', '-o', 'json'], { configDir });
    expect(JSON.parse(json.stdout)).toEqual({ key: 'catalog.url', value: 'http://127.0.0.1:8000', source: 'profile' });
    const path = await runCli(['config', 'path', '--json'], { configDir });
    expect(JSON.parse(path.stdout)).toEqual({ path: join(configDir, 'settings.json') });
  });

  it('stores file settings as absolute paths (cron runs elsewhere)', async () => {
    const configDir = tempConfigDir();
    for (const key of ['keys.privateKeyFile', 'caFile']) {
      const set = await runCli(['config', 'set', key, './secrets/file.pem'], { configDir });
      expect(set.exitCode).toBe(0);
      expect(set.stderr).toContain(`to ${join(process.cwd(), 'secrets', 'file.pem')}`);
      expect((await runCli(['config', 'get', key], { configDir })).stdout).toBe(`${join(process.cwd(), 'secrets', 'file.pem')}\n`);
    }
    await runCli(['config', 'set', 'catalog.url', 'http://127.0.0.1:8000/./x'], { configDir });
    expect((await runCli(['config', 'get', 'catalog.url'], { configDir })).stdout).toBe('http://127.0.0.1:8000/./x\n');
  });

  it('keeps every config set when several trident processes write at once (a lock around each change)', async () => {
    const configDir = tempConfigDir();
    const writers = Array.from({ length: 6 }, async (_, writer) => {
      for (let n = 0; n < 6; n += 1) {
        const result = await runCli(['--profile', `w${writer}-${n}`, 'config', 'set', 'catalog.url', `http://127.0.0.1:${n + 1}`], {
          configDir,
        });
        expect(result.exitCode, result.stderr).toBe(0);
      }
    });
    await Promise.all(writers);
    const profiles = JSON.parse(readFileSync(join(configDir, 'settings.json'), 'utf8')).profiles;
    expect(Object.keys(profiles)).toHaveLength(36);
  }, 60_000);

  it('keeps profiles apart and shows where each value comes from', async () => {
    const configDir = tempConfigDir();
    await runCli(['--profile', 'ci', 'config', 'set', 'output', 'json'], { configDir });
    await runCli(['config', 'set', 'keys.keyId', 'abc'], { configDir });
    const list = await runCli(['config', 'list', '-o', 'json'], {
      configDir,
      env: { TRIDENT_KEYS_URL: 'http://127.0.0.1:1/trade-api/v2' },
    });
    const rows = JSON.parse(list.stdout) as Array<{ key: string; value: string | null; source: string | null }>;
    expect(rows.find((r) => r.key === 'keys.keyId')).toEqual({
      key: 'keys.keyId',
      value: 'abc',
      source: 'profile',
      origin: 'profile "default"',
    });
    expect(rows.find((r) => r.key === 'keys.url')).toMatchObject({ source: 'env', origin: 'TRIDENT_KEYS_URL' });
    const table = await runCli(['config', 'list', '-o', 'table'], {
      configDir,
      env: { TRIDENT_KEYS_URL: 'http://127.0.0.1:1/trade-api/v2' },
    });
    expect(table.stdout).toMatch(/keys\.url +│ http:\/\/127\.0\.0\.1:1\/trade-api\/v2 +│ env TRIDENT_KEYS_URL +│/);
    expect(table.stdout).toMatch(/keys\.keyId +│ abc +│ profile "default" +│/);
    expect(rows.find((r) => r.key === 'output')).toMatchObject({ value: 'json', source: 'flag' });
    expect(rows.find((r) => r.key === 'time.userAgent')).toMatchObject({ value: 'trident-cli', source: 'default' });
    const ci = await runCli(['--profile', 'ci', 'config', 'get', 'output'], { configDir });
    expect(ci.stdout).toBe('json\n');
    const profiles = await runCli(['config', 'profiles', '-o', 'csv'], { configDir });
    expect(profiles.stdout).toBe('profile,current\nci,false\ndefault,true\n');
  });

  it('config use makes a profile the default; a setting missing from the current profile names the profile that has it', async () => {
    const configDir = tempConfigDir();
    await runCli(['--profile', 'sandbox', 'config', 'set', 'catalog.url', 'http://127.0.0.1:9'], { configDir });
    const trapped = await runCli(['catalog', 'count'], { configDir });
    expect(trapped).toEqual({
      exitCode: 2,
      stdout: '',
      stderr:
        'trident: no catalog service URL configured in profile "default"\nhint: profile "sandbox" has catalog.url: add --profile sandbox, or make it the default with: trident config use sandbox\n',
    });
    expect(await runCli(['config', 'use', 'sandbx'], { configDir })).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `trident: no profile "sandbx" in ${configDir}/settings.json\nhint: profiles are: sandbox\n`,
    });
    expect(await runCli(['config', 'use', 'sandbox'], { configDir })).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'the default profile is now "sandbox"\n',
    });
    expect((await runCli(['config', 'get', 'catalog.url'], { configDir })).stdout).toBe('http://127.0.0.1:9\n');
    expect((await runCli(['config', 'profiles', '-o', 'csv'], { configDir })).stdout).toBe('profile,current\nsandbox,true\n');
    // --profile and TRIDENT_PROFILE still win over it.
    const flagged = await runCli(['--profile', 'other', 'config', 'get', 'catalog.url'], { configDir });
    expect(flagged.exitCode).toBe(5);
    const fromEnv = await runCli(['config', 'get', 'catalog.url'], { configDir, env: { TRIDENT_PROFILE: 'other' } });
    expect(fromEnv.exitCode).toBe(5);
    await runCli(['config', 'use', 'default'], { configDir });
    expect((await runCli(['config', 'profiles', '-o', 'csv'], { configDir })).stdout).toBe('profile,current\nsandbox,false\n');
  });

  it('rejects unknown settings and bad values with exit 2, and a missing value with exit 5', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'nope', 'x'], { configDir })).exitCode).toBe(2);
    expect((await runCli(['config', 'set', 'time.authScheme', 'basic'], { configDir })).exitCode).toBe(2);
    expect((await runCli(['config', 'set', 'catalog.url', 'not a url'], { configDir })).exitCode).toBe(2);
    const missing = await runCli(['config', 'get', 'catalog.url'], { configDir });
    expect(missing.exitCode).toBe(5);
    expect(missing.stderr).toBe('trident: catalog.url is not set in profile "default"\n');
  });

  it('prints tsv when piped and nothing but data on stdout', async () => {
    const result = await runCli(['config', 'list']);
    expect(result.stdout.split('\n')[0]).toBe('key\tvalue\tsource\torigin');
  });

  it('exits 130 with one line when interrupted while waiting for a service', async () => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const silent = createServer(() => received());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const cli = spawnCli(['catalog', 'count', '--url', `http://127.0.0.1:${port}`]);
      await arrived;
      cli.kill('SIGINT');
      const result = await cli;
      expect(result.exitCode).toBe(130);
      expect(String(result.stderr).trim()).toBe('trident: interrupted');
      expect(String(result.stdout)).toBe('');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
