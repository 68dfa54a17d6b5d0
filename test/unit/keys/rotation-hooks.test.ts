// The pieces of the application hooks and key ages that need no service: age parsing and display, the
// environment a hook gets, and running a hook (stdin, exit code, output, time-out of its process group).
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { formatAge, parseAge } from '../../../src/keys/key-ages.js';
import { hookEnvironment, runHook, type HookRun } from '../../../src/keys/rotation/hooks.js';
import { running } from '../../helpers/processes.js';

const RUN: HookRun = { command: 'true', step: 'deploy', keyId: 'new-id', keyFile: '/k/new.pem', oldKeyId: 'old-id', newKeyId: 'new-id', timeoutMs: 10_000 };

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('ages', () => {
  it('parses m, h, d and w; refuses anything else with exit 2', () => {
    expect(parseAge('90d')).toBe(90 * 86_400);
    expect(parseAge('36h')).toBe(36 * 3600);
    expect(parseAge('30m')).toBe(1800);
    expect(parseAge('2w')).toBe(14 * 86_400);
    for (const bad of ['90', 'd', '0d', '-1d', '1y', '1 d x']) expect(() => parseAge(bad), bad).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it('formats days, hours and minutes', () => {
    expect(formatAge(0)).toBe('0m');
    expect(formatAge(59)).toBe('0m');
    expect(formatAge(93_784)).toBe('1d 2h 3m');
    expect(formatAge(100 * 86_400)).toBe('100d');
    expect(formatAge(3 * 3600 + 60)).toBe('3h 1m');
  });
});

describe('hook environment', () => {
  it("withholds trident's secrets and its crash hook, keeps the user's variables, adds the deploy variables", () => {
    const env = hookEnvironment(
      { PATH: '/bin', GH_TOKEN: 'users-own', TRIDENT_PRIVATE_KEY: 'pem', TRIDENT_TIME_TOKEN: 't', TRIDENT_TEST_CRASH_AFTER: 'deploying', TRIDENT_PRIVATE_KEY_FILE: '/k/old.pem', TRIDENT_CONFIG_DIR: '/c' },
      RUN,
    );
    expect(env).toEqual({
      PATH: '/bin',
      GH_TOKEN: 'users-own',
      TRIDENT_PRIVATE_KEY_FILE: '/k/old.pem',
      TRIDENT_CONFIG_DIR: '/c',
      TRIDENT_DEPLOY_STEP: 'deploy',
      TRIDENT_DEPLOY_KEY_ID: 'new-id',
      TRIDENT_DEPLOY_KEY_FILE: '/k/new.pem',
      TRIDENT_OLD_KEY_ID: 'old-id',
      TRIDENT_NEW_KEY_ID: 'new-id',
    });
  });
});

describe('runHook', () => {
  it('gives the PEM on stdin only, forwards stdout and stderr, and reports the exit code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trident-hook-'));
    const out = collect();
    const command = `cat > ${dir}/got.pem; echo "out $TRIDENT_DEPLOY_STEP"; echo err >&2; exit 5`;
    const outcome = await runHook({ ...RUN, command, pem: 'PEM-TEXT' }, { PATH: process.env.PATH }, out.stream);
    expect(outcome).toMatchObject({ exitCode: 5, timedOut: false, signal: null });
    expect(readFileSync(`${dir}/got.pem`, 'utf8')).toBe('PEM-TEXT');
    expect(out.text()).toContain('out deploy\n');
    expect(out.text()).toContain('err\n');
  });

  it('runs in the directory the rotation started in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trident-hook-'));
    const outcome = await runHook({ ...RUN, command: 'pwd > where', cwd: dir }, { PATH: process.env.PATH }, collect().stream);
    expect(outcome.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'where'), 'utf8').trim()).toBe(realpathSync(dir));
  });

  it('a hook that ignores its stdin is fine', async () => {
    const outcome = await runHook({ ...RUN, command: 'exit 0', pem: 'x'.repeat(1 << 20) }, { PATH: process.env.PATH }, collect().stream);
    expect(outcome.exitCode).toBe(0);
  });

  it('kills the whole process group on time-out, also children that ignore SIGTERM, in bounded time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trident-hook-'));
    const start = Date.now();
    const command = `sh -c 'trap "" TERM; echo $$ > ${dir}/pid; while :; do sleep 1; done' & sleep 30`;
    const outcome = await runHook({ ...RUN, command, timeoutMs: 500 }, { PATH: process.env.PATH }, collect().stream);
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitCode).toBeNull();
    const stubborn = Number(readFileSync(`${dir}/pid`, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(running(stubborn)).toBe(false);
    // 0.3 s limit + 2 s grace before SIGKILL + 1 s for the pipes, with room to spare
    expect(Date.now() - start).toBeLessThan(8_000);
  });
});
