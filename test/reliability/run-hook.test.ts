// Running an application hook: the PEM on its stdin only, its output forwarded, its exit code, its working
// directory, and the time-out that kills its whole process group. Each case starts real processes, which is
// why this runs with the binary tests rather than the unit lane.
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runHook, type HookRun } from '../../src/keys/rotation/hooks.js';
import { running } from '../helpers/processes.js';

const RUN: HookRun = {
  command: 'true',
  step: 'deploy',
  keyId: 'new-id',
  keyFile: '/k/new.pem',
  oldKeyId: 'old-id',
  newKeyId: 'new-id',
  timeoutMs: 10_000,
};

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

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
