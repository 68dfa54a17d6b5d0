// The time tracker's token in a real Secret Service: time login stores it there and the profile names the entry,
// the time commands and status use it, logout removes it, and an entry removed behind trident's back is exit 4.
// The entry belongs to its config dir, and the token to the tracker that issued it.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { dirAccount, dirReference, KEYRING_TOOLS } from '../helpers/keyring-session.js';
import { useKeyringSession } from '../helpers/per-suite.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();

describeWithTools(KEYRING_TOOLS, 'the time token in the OS keyring', () => {
  const keyring = useKeyringSession();

  const env = () => ({ ...time.env, ...keyring.env });
  const login = (configDir: string) =>
    runCli(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin', '-o', 'json'], {
      configDir,
      env: env(),
      input: `${SANDBOX_TIME_USER.password}\n`,
    });
  const reference = (configDir: string) => dirReference(configDir, 'time/default');
  const account = (configDir: string) => dirAccount(configDir, 'time/default');

  it('login stores it in the keyring, not on disk; projects, status and config list use and name it; logout removes it', async () => {
    const configDir = tempConfigDir();
    const loggedIn = await login(configDir);
    expect(loggedIn.exitCode, loggedIn.stderr).toBe(0);
    expect(JSON.parse(loggedIn.stdout).token_file).toBe(reference(configDir));
    const stored = JSON.parse(keyring.lookup(account(configDir))!);
    expect(stored).toMatchObject({ userAgent: 'trident-cli', email: SANDBOX_TIME_USER.email, issuer: time.env.TRIDENT_TIME_URL });
    expect(loggedIn.stdout + loggedIn.stderr).not.toContain(stored.token);
    expect(existsSync(join(configDir, 'tokens')) ? readdirSync(join(configDir, 'tokens')) : []).toEqual([]);

    const projects = await runCli(['time', 'projects', '-o', 'json'], { configDir, env: env() });
    expect(projects.exitCode, projects.stderr).toBe(0);
    const status = await runCli(['status', '--service', 'time', '-o', 'json'], { configDir, env: env() });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).time.credential_source).toBe(`stored by time login in ${reference(configDir)}`);
    const listed = await runCli(['config', 'list', '-o', 'json'], { configDir, env: env() });
    expect(listed.stdout).toContain(reference(configDir));
    expect(listed.stdout + status.stdout + projects.stdout).not.toContain(stored.token);

    const loggedOut = await runCli(['time', 'logout', '-o', 'json'], { configDir, env: env() });
    expect(loggedOut.exitCode, loggedOut.stderr).toBe(0);
    expect(JSON.parse(loggedOut.stdout)).toMatchObject({ revoked: true, token_file_removed: true });
    expect(keyring.lookup(account(configDir))).toBeUndefined();
    const after = await runCli(['time', 'projects'], { configDir, env: env() });
    expect(after.exitCode).toBe(4);
    expect(after.stderr).toMatch(/^trident: not logged in to the time tracker \(profile "default"\)\n/);
  });

  it("an entry removed behind trident's back: exit 4, one line naming it, a hint to log in again", async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).exitCode).toBe(0);
    keyring.clear(account(configDir));
    const projects = await runCli(['time', 'projects'], { configDir, env: env() });
    expect(projects.exitCode).toBe(4);
    expect(projects.stderr).toBe(
      `trident: missing credential: the time token ${reference(configDir)} is not in the OS keyring\nhint: log in again: trident time login\n`,
    );
  });

  it('a login with files chosen moves the token out of the keyring', async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).exitCode).toBe(0);
    const again = await runCli(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin'], {
      configDir,
      env: { ...env(), TRIDENT_CREDENTIAL_STORE: 'file' },
      input: `${SANDBOX_TIME_USER.password}\n`,
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(keyring.lookup(account(configDir))).toBeUndefined();
    expect(readdirSync(join(configDir, 'tokens'))).toEqual(['default.json']);
    expect((await runCli(['time', 'projects'], { configDir, env: env() })).exitCode).toBe(0);
  });

  it('two config dirs on one keyring keep a token each: a login or logout in one leaves the other signed in', async () => {
    const [first, second] = [tempConfigDir(), tempConfigDir()];
    expect((await login(first)).exitCode).toBe(0);
    const firstToken = keyring.lookup(account(first));
    expect((await login(second)).exitCode).toBe(0);
    expect(account(second)).not.toBe(account(first));
    expect(keyring.lookup(account(first))).toBe(firstToken);
    const loggedOut = await runCli(['time', 'logout'], { configDir: second, env: env() });
    expect(loggedOut.exitCode, loggedOut.stderr).toBe(0);
    expect(keyring.lookup(account(second))).toBeUndefined();
    expect(keyring.lookup(account(first))).toBe(firstToken);
    const projects = await runCli(['time', 'projects', '-o', 'json'], { configDir: first, env: env() });
    expect(projects.exitCode, projects.stderr).toBe(0);
  });

  it('a token is refused for a tracker other than the one that issued it (exit 4), before anything is sent', async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).exitCode).toBe(0);
    // A port nothing listens on: a token sent there would end in a network error (exit 8), not in exit 4.
    const elsewhere = 'https://127.0.0.1:9/api/v1';
    const projects = await runCli(['time', 'projects'], { configDir, env: { ...env(), TRIDENT_TIME_URL: elsewhere } });
    expect(projects.exitCode).toBe(4);
    expect(projects.stderr).toBe(
      `trident: the time token in ${reference(configDir)} was issued by ${time.env.TRIDENT_TIME_URL}, not ${elsewhere}: it is sent only to the tracker that issued it\nhint: log in to this tracker: trident time login\n`,
    );
    const api = await runCli(['api', 'time', '/projects'], { configDir, env: { ...env(), TRIDENT_TIME_URL: elsewhere } });
    expect(api.exitCode).toBe(4);
  });

  it('an entry an earlier release shared between config dirs is taken by the first to use it, bound to its tracker', async () => {
    const [first, second] = [tempConfigDir(), tempConfigDir()];
    expect((await login(first)).exitCode).toBe(0);
    const { issuer: _issuer, ...earlier } = JSON.parse(keyring.lookup(account(first))!);
    keyring.clear(account(first));
    keyring.put('time/default', JSON.stringify(earlier));
    for (const configDir of [first, second]) {
      const set = await runCli(['config', 'set', 'time.tokenLocation', 'keyring:trident/time/default'], { configDir, env: env() });
      expect(set.exitCode, set.stderr).toBe(0);
    }
    const projects = await runCli(['time', 'projects', '-o', 'json'], { configDir: first, env: env() });
    expect(projects.exitCode, projects.stderr).toBe(0);
    expect(projects.stderr).toContain(
      `the time token moved from keyring:trident/time/default, which every config dir shared, to ${reference(first)}`,
    );
    expect(keyring.lookup('time/default')).toBeUndefined();
    expect(JSON.parse(keyring.lookup(account(first))!)).toEqual({ ...earlier, issuer: time.env.TRIDENT_TIME_URL });
    const listed = await runCli(['config', 'get', 'time.tokenLocation'], { configDir: first, env: env() });
    expect(listed.stdout.trim()).toBe(reference(first));
    const again = await runCli(['time', 'projects'], { configDir: first, env: env() });
    expect(again.exitCode, again.stderr).toBe(0);
    const other = await runCli(['time', 'projects'], { configDir: second, env: env() });
    expect(other.exitCode).toBe(4);
    expect(other.stderr).toContain('is not in the OS keyring');
  });
});
