// The time tracker's token in a real Secret Service: time login stores it there and the profile names the entry,
// the time commands and status use it, logout removes it, and an entry removed behind trident's back is exit 4.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/server.js';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { KEYRING_TOOLS, startKeyringSession, type KeyringSession } from '../helpers/keyring-session.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();

describeWithTools(KEYRING_TOOLS, 'the time token in the OS keyring', () => {
  let keyring: KeyringSession;
  beforeAll(async () => {
    keyring = await startKeyringSession();
  });
  afterAll(() => keyring.stop());

  const env = () => ({ ...time.env, ...keyring.env });
  const login = (configDir: string) =>
    runCli(['time', 'login', '--email', SANDBOX_TIME_USER.email, '--password-stdin', '-o', 'json'], {
      configDir,
      env: env(),
      input: `${SANDBOX_TIME_USER.password}\n`,
    });
  const reference = 'keyring:trident/time/default';

  it('login stores it in the keyring, not on disk; projects, status and config list use and name it; logout removes it', async () => {
    const configDir = tempConfigDir();
    const loggedIn = await login(configDir);
    expect(loggedIn.exitCode, loggedIn.stderr).toBe(0);
    expect(JSON.parse(loggedIn.stdout).token_file).toBe(reference);
    const stored = JSON.parse(keyring.lookup('time/default')!);
    expect(stored).toMatchObject({ userAgent: 'trident-cli', email: SANDBOX_TIME_USER.email });
    expect(loggedIn.stdout + loggedIn.stderr).not.toContain(stored.token);
    expect(existsSync(join(configDir, 'tokens')) ? readdirSync(join(configDir, 'tokens')) : []).toEqual([]);

    const projects = await runCli(['time', 'projects', '-o', 'json'], { configDir, env: env() });
    expect(projects.exitCode, projects.stderr).toBe(0);
    const status = await runCli(['status', '--service', 'time', '-o', 'json'], { configDir, env: env() });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).time.credential_source).toBe(`stored by time login in ${reference}`);
    const listed = await runCli(['config', 'list', '-o', 'json'], { configDir, env: env() });
    expect(listed.stdout).toContain(reference);
    expect(listed.stdout + status.stdout + projects.stdout).not.toContain(stored.token);

    const loggedOut = await runCli(['time', 'logout', '-o', 'json'], { configDir, env: env() });
    expect(loggedOut.exitCode, loggedOut.stderr).toBe(0);
    expect(JSON.parse(loggedOut.stdout)).toMatchObject({ revoked: true, token_file_removed: true });
    expect(keyring.lookup('time/default')).toBeUndefined();
    const after = await runCli(['time', 'projects'], { configDir, env: env() });
    expect(after.exitCode).toBe(4);
    expect(after.stderr).toMatch(/^trident: not logged in to the time tracker \(profile "default"\)\n/);
  });

  it("an entry removed behind trident's back: exit 4, one line naming it, a hint to log in again", async () => {
    const configDir = tempConfigDir();
    expect((await login(configDir)).exitCode).toBe(0);
    keyring.clear('time/default');
    const projects = await runCli(['time', 'projects'], { configDir, env: env() });
    expect(projects.exitCode).toBe(4);
    expect(projects.stderr).toBe(
      `trident: missing credential: the time token ${reference} is not in the OS keyring\nhint: log in again: trident time login\n`,
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
    expect(keyring.lookup('time/default')).toBeUndefined();
    expect(readdirSync(join(configDir, 'tokens'))).toEqual(['default.json']);
    expect((await runCli(['time', 'projects'], { configDir, env: env() })).exitCode).toBe(0);
  });
});
