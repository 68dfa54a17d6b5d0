// A hook belongs to its rotation's journal. A deploy hook that outlives the trident that started it (trident
// killed -9, the hook going on to write the new key seconds later) is ended by the --resume or --abort that
// comes next, before anything else: the application ends up where the report says. A rotation stopped by
// SIGHUP (the terminal or ssh session gone) ends its hook, exits 130 and names the journal.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROTATE_JSON, expectRotated, expectUndone, profileWithKey, rotate, spawnRotate } from '../helpers/keys-rotation.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The application: `key-id` names the key it uses. The first deploy kills trident (its parent), then writes the
 * new key's id a while later, as a slow deploy would; a deploy run again, and the rollback, write at once.
 */
function slowApp(oldId: string, delay: number) {
  const dir = mkdtempSync(join(tmpdir(), 'trident-slow-app-'));
  const keyIdFile = join(dir, 'key-id');
  const deploy = [
    `cat > /dev/null`,
    `if [ "$TRIDENT_DEPLOY_STEP" = deploy ] && [ ! -e ${dir}/once ]; then touch ${dir}/once; kill -9 $PPID; sleep ${delay}; fi`,
    `echo "$TRIDENT_DEPLOY_KEY_ID" > ${keyIdFile}`,
  ].join('; ');
  return { dir, deploy, keyId: () => (existsSync(keyIdFile) ? readFileSync(keyIdFile, 'utf8').trim() : oldId) };
}

describe.concurrent('a deploy hook that outlives its trident', { timeout: 60_000 }, () => {
  for (const action of ['abort', 'resume'] as const) {
    it(`is ended by --${action} before it goes on; the application ends where the report says`, async () => {
      const setup = profileWithKey(sandbox);
      const app = slowApp(setup.oldId, 4);
      const killed = await spawnRotate(setup, [...ROTATE_JSON, '--deploy', app.deploy]);
      expect(killed.signal, String(killed.stderr)).toBe('SIGKILL');
      const journal = JSON.parse(readFileSync(setup.journal, 'utf8'));
      expect(journal).toMatchObject({ phase: 'deploying', hook: { step: 'deploy', pgid: expect.any(Number) } });

      const result = await rotate(setup, [`--${action}`, ...ROTATE_JSON]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stderr).toContain(
        `the deploy command of the interrupted run (process group ${journal.hook.pgid}) was still running: it was ended before going on`,
      );
      // Longer than the surviving hook would have slept: had it lived, it would have written by now.
      await sleep(5000);
      if (action === 'abort') {
        await expectUndone(sandbox, setup);
        expect(app.keyId()).toBe(setup.oldId);
      } else {
        const newId = await expectRotated(sandbox, setup);
        expect(app.keyId()).toBe(newId);
      }
    });
  }
});

describe('SIGHUP during a hook', { timeout: 60_000 }, () => {
  it('ends the hook, exits 130 and names the journal and how to go on', async () => {
    const setup = profileWithKey(sandbox);
    const marker = join(mkdtempSync(join(tmpdir(), 'trident-hup-')), 'started');
    // The deploy takes its time; the rollback deploy of the --abort below is quick.
    const deploy = `cat > /dev/null; [ "$TRIDENT_DEPLOY_STEP" = deploy ] || exit 0; touch ${marker}; sleep 30; touch ${marker}.late`;
    const child = spawnRotate(setup, [...ROTATE_JSON, '--deploy', deploy]);
    for (let waited = 0; !existsSync(marker) && waited < 20_000; waited += 50) await sleep(50);
    child.kill('SIGHUP');
    const result = await child;
    expect(result.exitCode).toBe(130);
    const lines = String(result.stderr).trimEnd().split('\n').slice(-2);
    expect(lines).toEqual([
      'trident: interrupted (SIGHUP)',
      `hint: the rotation is paused at step "deploying" (journal ${setup.journal}): trident keys rotate --resume finishes it, trident keys rotate --abort undoes it`,
    ]);
    const { hook } = JSON.parse(readFileSync(setup.journal, 'utf8')) as { hook: { pgid: number } };
    // SIGKILLed with trident's exit: gone once reaped.
    const alive = () => {
      try {
        process.kill(-hook.pgid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let waited = 0; alive() && waited < 5000; waited += 50) await sleep(50);
    expect(alive()).toBe(false);
    const aborted = await rotate(setup, ['--abort', ...ROTATE_JSON]);
    expect(aborted.exitCode, aborted.stderr).toBe(0);
    await expectUndone(sandbox, setup);
    expect(existsSync(`${marker}.late`)).toBe(false);
  });
});
