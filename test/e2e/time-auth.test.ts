import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();
const tokenFile = (configDir: string, profile = 'default') => join(configDir, 'tokens', `${profile}.json`);

function login(configDir: string, extra: string[] = [], password = `${SANDBOX_TIME_USER.password}\n`) {
  return runCli(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin', ...extra], {
    configDir,
    env: time.env,
    input: password,
  });
}

describe('time login, commands, logout over HTTPS', () => {
  it('a port that does not serve TLS is said so in one line, not in the words of OpenSSL', async () => {
    const plain = createServer((_req, res) => res.end('hello'));
    plain.listen(0, '127.0.0.1');
    await once(plain, 'listening');
    const { port } = plain.address() as AddressInfo;
    try {
      const result = await runCli(['time', 'projects', '--url', `https://127.0.0.1:${port}/api/v1`, '--retries', '0'], {
        env: time.tokenEnv(),
      });
      expect(result.exitCode).toBe(8);
      expect(result.stderr).toBe(
        `trident: TLS error talking to 127.0.0.1:${port}: wrong version number\nhint: 127.0.0.1:${port} does not answer with TLS: check that this port serves https\n`,
      );
    } finally {
      plain.close();
    }
  });

  it('login with --url and --ca-file keeps them in the profile: the next command needs only --profile', async () => {
    const configDir = tempConfigDir();
    const { url, caFile } = time.sandbox;
    const loggedIn = await runCli(
      ['--profile', 'work', 'time', 'login', '--url', url, '--ca-file', caFile!, '--email', SANDBOX_TIME_USER.email, '--password-stdin'],
      { configDir, input: `${SANDBOX_TIME_USER.password}\n` },
    );
    expect(loggedIn.exitCode, loggedIn.stderr).toBe(0);
    expect(loggedIn.stderr).toContain(`profile "work" now has time.url ${url} and caFile ${caFile}`);
    const projects = await runCli(['--profile', 'work', 'time', 'projects', '-o', 'json'], { configDir });
    expect(projects.exitCode, projects.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(projects.stdout))).toBe(true);
    const again = await runCli(
      ['--profile', 'work', 'time', 'login', '--url', url, '--email', SANDBOX_TIME_USER.email, '--password-stdin'],
      {
        configDir,
        input: `${SANDBOX_TIME_USER.password}\n`,
      },
    );
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('now has');
  });

  it('logs in with the password from stdin, stores the token 0600, uses it three times with one User-Agent, logs out', async () => {
    const configDir = tempConfigDir();
    const before = time.sandbox.server.requests.length;

    const loggedIn = await login(configDir, ['--debug', '-o', 'json']);
    expect(loggedIn.exitCode).toBe(0);
    const path = tokenFile(configDir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(path, 'utf8')) as {
      token: string;
      userAgent: string;
      email: string;
      accountId: string;
      createdAt: string;
    };
    expect(stored).toMatchObject({ userAgent: 'trident-cli', email: SANDBOX_TIME_USER.email, accountId: SANDBOX_TIME_USER.accountId });
    expect(time.sandbox.control.hasToken(stored.token)).toBe(true);
    expect(JSON.parse(loggedIn.stdout)).toEqual({
      profile: 'default',
      email: SANDBOX_TIME_USER.email,
      account_id: SANDBOX_TIME_USER.accountId,
      token_file: path,
      user_agent: 'trident-cli',
    });

    const outputs = [loggedIn.stdout, loggedIn.stderr];
    for (const args of [
      ['time', 'projects'],
      ['time', 'projects', 'get', '57', '--debug'],
      ['time', 'projects', '--status', 'all', '--debug'],
    ]) {
      const result = await runCli(args, { configDir, env: time.env });
      expect(result.exitCode).toBe(0);
      outputs.push(result.stdout, result.stderr);
    }
    expect(time.sandbox.control.hasToken(stored.token)).toBe(true);

    const loggedOut = await runCli(['time', 'logout', '--debug'], { configDir, env: time.env });
    expect(loggedOut.exitCode).toBe(0);
    outputs.push(loggedOut.stdout, loggedOut.stderr);
    expect(time.sandbox.control.hasToken(stored.token)).toBe(false);
    expect(() => statSync(path)).toThrow();

    const sent = time.sandbox.server.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      // login checks the new token with one GET before it stores it
      'POST /api/v1/auth',
      'GET /api/v1/projects',
      'GET /api/v1/projects',
      'GET /api/v1/projects/57',
      'GET /api/v1/projects',
      'GET /api/v1/auth/revoke',
    ]);
    expect(new Set(sent.map((r) => r.headers['user-agent']))).toEqual(new Set(['trident-cli']));
    expect(sent[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent[1]!.headers.authorization).toBe(`Bearer ${stored.token}`);
    for (const text of outputs) {
      expect(text).not.toContain(stored.token);
      expect(text).not.toContain(SANDBOX_TIME_USER.password);
    }
    expect(outputs.join('')).toContain('debug: > GET');
  });

  it("a wrong password exits 4 with the service's message and stores nothing", async () => {
    const configDir = tempConfigDir();
    const result = await login(configDir, [], 'wrong\n');
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('time service answered 401: Invalid email, password or account');
    expect(() => statSync(tokenFile(configDir))).toThrow();
  });

  it('without a terminal and without --password-stdin it exits 2 and sends nothing', async () => {
    const before = time.sandbox.server.requests.length;
    const result = await runCli(['time', 'login', '--email', SANDBOX_TIME_USER.email], { env: time.env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no password given');
    expect(result.stderr).toContain('--password-stdin');
    const noEmail = await runCli(['time', 'login', '--password-stdin'], { env: time.env, input: 'x\n' });
    expect(noEmail.exitCode).toBe(2);
    expect(noEmail.stderr).toContain('--email');
    expect(time.sandbox.server.requests.length).toBe(before);
  });

  it('logout removes the stored token even when the service has already forgotten it', async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).exitCode).toBe(0);
    const { token } = JSON.parse(readFileSync(tokenFile(configDir), 'utf8')) as { token: string };
    // Someone else revoked it meanwhile.
    expect((await runCli(['time', 'logout'], { env: { ...time.env, TRIDENT_TIME_TOKEN: token } })).exitCode).toBe(0);
    const result = await runCli(['time', 'logout', '-o', 'json'], { configDir, env: time.env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ revoked: false, token_file_removed: true });
    expect(result.stderr).toContain('no longer knew the token');
    expect(() => statSync(tokenFile(configDir))).toThrow();
  });

  it('logout without any token does nothing and says so', async () => {
    const before = time.sandbox.server.requests.length;
    const result = await runCli(['time', 'logout'], { env: time.env });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('not logged in');
    expect(time.sandbox.server.requests.length).toBe(before);
  });
});

describe('time credentials and transport', () => {
  it('no token: exit 4 with the login hint, nothing sent', async () => {
    const before = time.sandbox.server.requests.length;
    const result = await runCli(['time', 'projects'], { env: time.env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('trident: not logged in to the time tracker (profile "default")');
    expect(result.stderr).toContain('hint: trident time login');
    expect(time.sandbox.server.requests.length).toBe(before);
  });

  it('refuses an http:// URL (exit 2) before anything is sent, token or not', async () => {
    const before = time.sandbox.server.requests.length;
    const plain = time.sandbox.url.replace('https://', 'http://');
    for (const args of [
      ['time', 'projects', '--url', plain],
      ['time', 'customer-update', '3', '--name', 'x', '--url', plain],
    ]) {
      const result = await runCli(args, { env: time.tokenEnv() });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('refusing to send credentials in clear text');
    }
    const loginResult = await runCli(['time', 'login', '--email', 'a@b.c', '--password-stdin'], {
      env: { ...time.env, TRIDENT_TIME_URL: plain },
      input: 'pw\n',
    });
    expect(loginResult.exitCode).toBe(2);
    expect(time.sandbox.server.requests.length).toBe(before);
  });

  it('refuses (exit 2) to send a token created with another User-Agent, with nothing sent', async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).exitCode).toBe(0);
    const { token } = JSON.parse(readFileSync(tokenFile(configDir), 'utf8')) as { token: string };
    expect((await runCli(['config', 'set', 'time.userAgent', 'something-else'], { configDir })).exitCode).toBe(0);
    const before = time.sandbox.server.requests.length;
    const result = await runCli(['time', 'projects'], { configDir, env: time.env });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('created with User-Agent "trident-cli"');
    expect(time.sandbox.server.requests.length).toBe(before);
    expect(time.sandbox.control.hasToken(token)).toBe(true);

    // --yes sends it anyway, after a warning: the service destroys it.
    const forced = await runCli(['time', 'projects', '--yes'], { configDir, env: time.env });
    expect(forced.stderr).toContain('warning: the token was created with User-Agent "trident-cli"');
    expect(forced.exitCode).toBe(4);
    expect(forced.stderr).toContain('hint:');
    expect(time.sandbox.server.requests.at(-1)!.headers['user-agent']).toBe('something-else');
    expect(time.sandbox.control.hasToken(token)).toBe(false);
  });

  it('sends the bare token with time.authScheme raw, and reads --token-file', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'time.authScheme', 'raw'], { configDir })).exitCode).toBe(0);
    const token = time.sandbox.control.issueToken('trident-cli');
    const file = join(configDir, 'token.txt');
    writeFileSync(file, `${token}\n`);
    const result = await runCli(['time', 'projects', 'get', '58', '--token-file', file, '-o', 'json'], { configDir, env: time.env });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 58, name: 'Café Zürich — Kassensystem' });
    expect(time.sandbox.server.requests.at(-1)!.headers.authorization).toBe(token);
  });

  it('a token the service does not know exits 4, with what to fix where the token came from', async () => {
    const fromEnv = await runCli(['time', 'projects'], { env: { ...time.env, TRIDENT_TIME_TOKEN: 'not-a-real-token' } });
    expect(fromEnv.exitCode).toBe(4);
    expect(fromEnv.stderr).toContain('time service answered 401: Invalid API token');
    // A login would not help: the variable would still win.
    expect(fromEnv.stderr).toContain("it is TRIDENT_TIME_TOKEN's, which wins over a login: set a valid one, or unset it");
    expect(fromEnv.stderr).not.toContain('trident time login');
    const file = join(mkdtempSync(join(tmpdir(), 'trident-token-')), 'token');
    writeFileSync(file, 'not-a-real-token', { mode: 0o600 });
    const fromFile = await runCli(['time', 'projects', '--token-file', file], { env: time.env });
    expect(fromFile.exitCode).toBe(4);
    expect(fromFile.stderr).toContain("it is --token-file's: put a valid token there, or leave the flag out and log in");
  });

  it('fails with exit 8 and a --ca-file hint when the sandbox CA is not trusted, and works with --ca-file', async () => {
    const result = await runCli(['time', 'projects'], { env: { TRIDENT_TIME_URL: time.sandbox.url, TRIDENT_TIME_TOKEN: 'x' } });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('--ca-file');
    const trusted = await runCli(['time', 'projects', '--ca-file', time.sandbox.caFile!], {
      env: { TRIDENT_TIME_URL: time.sandbox.url, TRIDENT_TIME_TOKEN: time.sandbox.control.issueToken('trident-cli') },
    });
    expect(trusted.exitCode).toBe(0);
  });
});
