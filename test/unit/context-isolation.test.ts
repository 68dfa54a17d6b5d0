// A command reaches nothing global: what one invocation sets (an interrupt hint, work an interrupt waits for,
// stdout's failure, TRIDENT_INSECURE_CONFIG, its working directory) is never seen by another run in the same
// process, even when the two interleave.
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { assertTrustedDir, withFileTrust } from '../../src/core/files/file-trust.js';
import { testContext } from '../helpers/context.js';

describe('two invocations in one process', () => {
  it('an interrupt during one command’s protected work does not hold back the other’s, nor take its hint', async () => {
    const a = testContext().ctx;
    const b = testContext().ctx;
    a.interrupts.setHint(() => 'the rotation is paused');
    let release!: () => void;
    const work = a.interrupts.finishBefore('making the key', () => new Promise<void>((resolve) => (release = resolve)));
    expect(b.interrupts.decide()).toEqual({ stop: true });
    expect(b.interrupts.hint()).toBeUndefined();
    expect(a.interrupts.decide()).toEqual({ stop: false, note: expect.stringMatching(/^interrupted: finishing making the key first/) });
    expect([a.interrupts.heldBack(), b.interrupts.heldBack()]).toEqual([true, false]);
    release();
    await work;
  });

  it('stdout failing under one command is not the other’s failure, and only the one that asked finishes its work', () => {
    const a = testContext().ctx;
    const b = testContext().ctx;
    a.stdoutWatch.finishWorkIfStdoutFails();
    const epipe = Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
    expect(a.stdoutWatch.onError(epipe)).toBeUndefined();
    expect(b.stdoutWatch.failure()).toBeUndefined();
    expect(b.stdoutWatch.onError(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }))).toBe(8);
    expect(a.stdoutWatch.failure()?.code).toBe('EPIPE');
  });

  it('TRIDENT_INSECURE_CONFIG=1 of one command does not turn the checks off for another running beside it', async () => {
    const open = mkdtempSync(join(tmpdir(), 'trident-trust-'));
    chmodSync(open, 0o777);
    const check = async () => {
      await tick();
      assertTrustedDir(open, 'directory');
      await tick();
      assertTrustedDir(open, 'directory');
    };
    const results = await Promise.allSettled([
      withFileTrust({ TRIDENT_INSECURE_CONFIG: '1' }, check),
      withFileTrust({}, check),
      withFileTrust({ TRIDENT_INSECURE_CONFIG: '1' }, check),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(() => assertTrustedDir(open, 'directory')).toThrow(/can be written by other users/);
  });

  it('the working directory is the one the invocation was given, not the process’s', async () => {
    const { createContext } = await import('../../src/context.js');
    const io = testContext().ctx.io;
    expect(createContext({}, { io, env: { TRIDENT_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'trident-cwd-')) }, cwd: '/srv/app' }).cwd).toBe(
      '/srv/app',
    );
    expect(testContext().ctx.cwd).toBe(process.cwd());
  });
});
