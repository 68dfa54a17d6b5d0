// Broken settings and a stuck settings lock: settings.json of the wrong shape is a usage error (exit 2) that
// names what is wrong, never a crash (exit 1), and is never rewritten; a lock left by a dead process is taken
// over at once (the waits for a holder that is unknown or alive are held on a fake clock in
// test/unit/core/settings.test.ts). Also `config set` values and profiles.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entries, envFor, errorOf, trident, useServices } from './harness.js';
import { allRequestsFrom, configWithStoredToken, scratchDir } from './local-env-helpers.js';

const services = useServices(['time']);

function configWith(settings: string): { configDir: string; settingsFile: string } {
  const configDir = join(scratchDir(), 'config');
  mkdirSync(configDir, { mode: 0o700 });
  const settingsFile = join(configDir, 'settings.json');
  writeFileSync(settingsFile, settings, { mode: 0o600 });
  return { configDir, settingsFile };
}

describe('settings.json of the wrong shape', () => {
  const SHAPES: Array<[string, string]> = [
    ['null', 'expected a JSON object, found null'],
    ['[]', 'expected a JSON object, found an array'],
    ['42', 'expected a JSON object, found a number'],
    ['"text"', 'expected a JSON object, found a string'],
    ['{"profiles": []}', '"profiles" must be an object, found an array'],
    ['{"profiles": {"default": null}}', 'profile "default" must be an object, found null'],
    ['{"profiles": {"default": {"time.userAgent": 5}}}', 'time.userAgent of profile "default" must be a string, found a number'],
    ['{"profiles": {"default": {"time.url": {"href": "https://x"}}}}', 'time.url of profile "default" must be a string, found an object'],
    ['{"profiles": {"default": {"keys.url": true}}}', 'keys.url of profile "default" must be a string, found a boolean'],
    ['{"profiles": {"default": {"output": null}}}', 'output of profile "default" must be a string, found null'],
    ['{"profiles": ', 'Unexpected end of JSON input'],
  ];

  it.each(SHAPES)('%s: exit 2 naming the problem, nothing sent, and config set leaves the file as it was', async (text, problem) => {
    const { configDir, settingsFile } = configWith(text);
    configWithStoredToken(services, configDir);
    const sent = allRequestsFrom(services);
    for (const args of [
      ['config', 'list'],
      ['time', 'projects'],
      ['time', 'login', '--email', 'x@example.com', '--password-stdin'],
      ['config', 'set', 'output', 'json'],
    ]) {
      const result = await trident(args, { configDir, env: envFor.timeServer(services), input: 'password\n' });
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(errorOf(result), args.join(' ')).toEqual({
        message: expect.stringContaining(`cannot read settings ${settingsFile}: `),
        hint: 'fix or remove the file',
      });
      expect(errorOf(result).message).toContain(problem);
    }
    expect(sent()).toEqual([]);
    expect(readFileSync(settingsFile, 'utf8')).toBe(text);
  });

  it('unknown keys and profiles of any name stay readable (a newer trident may have written them)', async () => {
    const { configDir } = configWith('{"profiles": {"default": {"future.setting": 5, "output": "json"}}, "other": [1]}');
    const result = await trident(['config', 'get', 'output'], { configDir });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'json\n' });
  });
});

describe('the settings lock', () => {
  /** The pid of a process that has exited. */
  function deadPid(): number {
    return Number(execFileSync('sh', ['-c', 'sh -c "echo \\$\\$" '], { encoding: 'utf8' }).trim());
  }

  it('a lock left by a killed process (its pid in the lock) is taken over at once', async () => {
    const { configDir, settingsFile } = configWith('{"profiles": {"default": {"output": "json"}}}');
    const lock = `${settingsFile}.lock`;
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), `${deadPid()}\n`);
    const result = await trident(['config', 'set', 'time.url', 'https://time.example.com/api/v1'], { configDir });
    expect(result.exitCode, result.stderr).toBe(0);
    // Measured ~0.3 s; the staleness window is 10 s.
    expect(result.ms).toBeLessThan(5_000);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({
      profiles: { default: { output: 'json', 'time.url': 'https://time.example.com/api/v1' } },
    });
    expect(existsSync(lock)).toBe(false);
  });
});

describe('a relative TRIDENT_CONFIG_DIR', () => {
  it('is refused with exit 2 naming the variable and its value, wherever trident starts: nothing read, made or sent', async () => {
    const started = scratchDir();
    const sent = allRequestsFrom(services);
    for (const args of [
      ['config', 'path'],
      ['config', 'set', 'output', 'json'],
      ['time', 'projects'],
    ]) {
      for (const value of ['cfg', './cfg', '../elsewhere/cfg']) {
        const result = await trident(args, { cwd: started, env: { ...envFor.time(services), TRIDENT_CONFIG_DIR: value } });
        expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(2);
        expect(errorOf(result)).toEqual({
          message: `TRIDENT_CONFIG_DIR "${value}" is a relative path: it would name another directory wherever trident is started`,
          hint: 'give an absolute path, one starting with "/", e.g. TRIDENT_CONFIG_DIR="$HOME/.config/trident"',
        });
        expect(result.ms).toBeLessThan(10_000);
      }
    }
    expect(entries(started)).toEqual([]);
    expect(sent()).toEqual([]);
  });
});

describe('config set and get: values and profiles', () => {
  it('a URL setting must be http(s): ftp://, file:// and javascript: are refused with exit 2', async () => {
    const configDir = join(scratchDir(), 'config');
    for (const [key, value] of [
      ['keys.url', 'ftp://x'],
      ['time.url', 'file:///etc/passwd'],
      ['catalog.url', 'javascript:alert(1)'],
    ]) {
      const result = await trident(['config', 'set', key!, value!], { configDir });
      expect(result.exitCode).toBe(2);
      expect(errorOf(result).message).toBe(`invalid URL "${value}" for ${key}: expected an http:// or https:// URL`);
    }
    expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
  });

  it('--profile <typo> config set says on stderr that it creates the profile; a second set does not', async () => {
    const configDir = join(scratchDir(), 'config');
    const first = await trident(['--profile', 'stagign', 'config', 'set', 'output', 'json'], { configDir });
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toBe(
      'created profile "stagign" (it did not exist; see trident config profiles)\nset output in profile "stagign"\n',
    );
    const second = await trident(['--profile', 'stagign', 'config', 'set', 'output', 'csv'], { configDir });
    expect(second.stderr).toBe('set output in profile "stagign"\n');
  });

  it('config get on a profile that does not exist says so (exit 5, as for an unset key) and names the profiles', async () => {
    const configDir = join(scratchDir(), 'config');
    await trident(['--profile', 'staging', 'config', 'set', 'output', 'json'], { configDir });
    const result = await trident(['--profile', 'stagign', 'config', 'get', 'catalog.url'], { configDir });
    expect(result.exitCode).toBe(5);
    expect(errorOf(result)).toEqual({ message: 'catalog.url is not set: profile "stagign" does not exist', hint: 'profiles are: staging' });
    const fromDefault = await trident(['--profile', 'stagign', 'config', 'get', 'time.userAgent'], { configDir });
    expect(fromDefault).toMatchObject({
      exitCode: 0,
      stdout: 'trident-cli\n',
      stderr: 'warning: profile "stagign" does not exist: time.userAgent comes from the default\n',
    });
  });
});
