// -q as cron runs it: no terminal, stdin closed, and cron mails whatever a job prints. A run with nothing to do
// prints nothing at all; a run that did something still reports it. The rotate.sh of docs/automation.md runs as
// written, through /bin/sh, against the keys sandbox.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, childEnv } from '../helpers/cli.js';
import { fleet, keysAs, makeDue, profileKeyId, rotateKeeping } from '../helpers/keys-fleet.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

/** The script that follows "`rotate.sh`" in docs/automation.md. */
function rotateScript(): string {
  const page = readFileSync(join(import.meta.dirname, '../../docs/automation.md'), 'utf8');
  const script = /^`rotate\.sh`[\s\S]*?```sh\n([\s\S]*?)```/m.exec(page)?.[1];
  expect(script, 'docs/automation.md has a rotate.sh').toBeDefined();
  return script!;
}

/** A script under /bin/sh as cron starts it: no terminal, stdin closed, `trident` the built binary. */
async function cronJob(script: string, configDir: string, profile: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'trident-cron-'));
  const env = { ...childEnv({ configDir }), NODE: process.execPath, BIN, TRIDENT_PROFILE: profile };
  const result = await execa('/bin/sh', ['-c', `trident() { "$NODE" "$BIN" "$@"; }\n${script}`], {
    env,
    extendEnv: false,
    cwd,
    stdin: 'ignore',
    reject: false,
    timeout: 45_000,
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr), cwd };
}

describe('-q with nothing to do prints nothing, as cron runs it', { timeout: 60_000 }, () => {
  it("docs/automation.md's rotate.sh: nothing to resume, a key not due: silent, exit 0, nothing changed", async () => {
    const world = fleet(sandbox, ['a']);
    const job = await cronJob(rotateScript(), world.configDir, 'a');
    expect(job.exitCode, job.stderr).toBe(0);
    expect(job.stdout).toBe('');
    expect(job.stderr).toBe('');
    expect(statSync(join(job.cwd, 'rotations.ndjson')).size).toBe(0);
    expect(profileKeyId(world, 'a')).toBe(world.keys.a);
  });

  it('keys rotate --resume --yes -q with nothing to resume: nothing on stdout or stderr, in any format', async () => {
    const world = fleet(sandbox, ['a']);
    for (const format of [[], ['-o', 'json'], ['-o', 'ndjson']]) {
      const result = await keysAs(world, 'a', ['rotate', '--resume', '--yes', '-q', ...format]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout, format.join(' ')).toBe('');
      expect(result.stderr).toBe('');
    }
    // without -q the outcome is still reported
    const told = await keysAs(world, 'a', ['rotate', '--resume', '--yes', '-o', 'json']);
    expect(JSON.parse(told.stdout)).toEqual({ outcome: 'nothing to resume' });
  });

  it('keys prune -q: nothing kept, or nothing due yet, prints nothing; a key deleted is reported', async () => {
    const world = fleet(sandbox, ['a']);
    for (const format of [[], ['-o', 'ndjson'], ['-o', 'csv']]) {
      const nothingKept = await keysAs(world, 'a', ['prune', '-q', ...format]);
      expect(nothingKept.exitCode, nothingKept.stderr).toBe(0);
      expect(nothingKept.stdout, format.join(' ')).toBe('');
      expect(nothingKept.stderr).toBe('');
    }
    const { old } = await rotateKeeping(world, 'a');
    const notDue = await keysAs(world, 'a', ['prune', '--quiet', '-o', 'ndjson']);
    expect(notDue.exitCode, notDue.stderr).toBe(0);
    expect(notDue.stdout).toBe('');
    expect(notDue.stderr).toBe('');
    makeDue(world, old);
    const due = await keysAs(world, 'a', ['prune', '--quiet', '-o', 'ndjson']);
    expect(due.exitCode, due.stderr).toBe(0);
    expect(JSON.parse(due.stdout)).toMatchObject({ api_key: old, result: 'deleted' });
    expect(due.stderr).toBe('');
  });
});
