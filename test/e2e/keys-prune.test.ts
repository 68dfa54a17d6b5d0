// keys rotate --keep-old-for and keys prune against the keys sandbox: a kept key is deleted only once its time
// has come (its record is moved into the past, as the clock would), never while a profile uses it, exactly
// once across kills and concurrent prunes, and with its private half and record gone after it.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import { processStartTime } from '../../src/core/process-identity.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { audit, fleet, keysAs, makeDue, overlapRecordPath, rotateKeeping, writeProfiles, type Fleet } from '../helpers/keys-fleet.js';
import { requestsFrom } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox({ resetAfterEach: true });

const recordPath = overlapRecordPath;
const readRecord = (world: Fleet, id: string) => JSON.parse(readFileSync(recordPath(world, id), 'utf8'));
const exists = (id: string) => sandbox.control.listKeys().some((key) => key.api_key === id);
const deletesOf = (id: string) => sandbox.control.events().filter((event) => event.type === 'delete' && event.id === id);

const prune = (world: Fleet, profile: string, args: string[] = [], env: Record<string, string> = {}) =>
  keysAs(world, profile, ['prune', '-o', 'json', ...args], { env });

describe('keys prune', () => {
  it('before its time: deletes nothing, sends nothing, and says until when the key is kept', async () => {
    const world = fleet(sandbox, ['a']);
    const { old, until } = await rotateKeeping(world, 'a');
    const sent = requestsFrom(sandbox);
    const result = await prune(world, 'a');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ api_key: old, profile: 'a', kept_until: until, result: 'not due', error: null }]);
    expect(result.stderr).toMatch(new RegExp(`^prune: key ${old} is kept until ${until} \\(in (59 minutes|1 hour)\\): not due\\n$`));
    expect(sent()).toEqual([]);
    expect(exists(old)).toBe(true);
    expect(existsSync(recordPath(world, old))).toBe(true);
    expect(existsSync(join(world.configDir, 'keys', `${old}.pem`))).toBe(true);
  });

  it('once due: deletes the key (signed by the new one), then its private half and its record', async () => {
    const world = fleet(sandbox, ['a']);
    const { old, fresh, until } = await rotateKeeping(world, 'a');
    makeDue(world, old);
    const dry = await prune(world, 'a', ['--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)[0]).toMatchObject({ api_key: old, result: 'would delete' });
    expect(exists(old)).toBe(true);
    const sent = requestsFrom(sandbox);
    const result = await prune(world, 'a');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { api_key: old, profile: 'a', kept_until: expect.any(String), result: 'deleted', error: null },
    ]);
    expect(sent()).toEqual([{ method: 'DELETE', path: `/trade-api/v2/api_keys/${old}` }]);
    expect(deletesOf(old)).toEqual([expect.objectContaining({ signer: fresh })]);
    expect(exists(fresh)).toBe(true);
    expect(existsSync(join(world.configDir, 'keys', `${old}.pem`))).toBe(false);
    expect(existsSync(recordPath(world, old))).toBe(false);
    expect(until).not.toBe('');
    const after = await audit(world, 'a', ['--fail-on', 'overlap']);
    expect(after.result.exitCode, after.result.stderr).toBe(0);
    expect([...after.keys.keys()]).toEqual([fresh]);
    const again = await prune(world, 'a');
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toMatch(/nothing to prune/);
  });

  it('never deletes a kept key that another profile uses now: one line, exit 2, the record kept; other due keys still go', async () => {
    const world = fleet(sandbox, ['a', 'b', 'c']);
    const a = await rotateKeeping(world, 'a');
    const c = await rotateKeeping(world, 'c');
    writeProfiles(world.configDir, sandbox.url, { a: a.fresh, b: a.old, c: c.fresh });
    makeDue(world, a.old);
    makeDue(world, c.old);
    const result = await prune(world, 'a');
    expect(result.exitCode).toBe(2);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('trident: ') || line.startsWith('hint: '));
    expect(lines).toEqual([
      `trident: key ${a.old} is due for pruning but profile "b" uses it now: not deleted, its record is kept`,
      `hint: point profile "b" at another key (trident keys rotate), or remove ${recordPath(world, a.old)} to keep the key for good`,
    ]);
    const results = JSON.parse(result.stdout);
    expect(results).toContainEqual(expect.objectContaining({ api_key: a.old, result: 'in use' }));
    expect(results).toContainEqual(expect.objectContaining({ api_key: c.old, result: 'deleted' }));
    expect(exists(a.old)).toBe(true);
    expect(deletesOf(a.old)).toEqual([]);
    expect(existsSync(recordPath(world, a.old))).toBe(true);
    expect(existsSync(join(world.configDir, 'keys', `${a.old}.pem`))).toBe(true);
    expect(exists(c.old)).toBe(false);
  });

  it('killed (SIGKILL) before or after the DELETE: the next prune finishes, and no key is deleted twice', async () => {
    for (const point of ['prune-deleting', 'prune-deleted']) {
      const world = fleet(sandbox, ['a']);
      const { old } = await rotateKeeping(world, 'a');
      makeDue(world, old);
      const killed = await prune(world, 'a', [], { [CRASH_ENV]: point });
      expect(killed.exitCode, point).not.toBe(0);
      const record = readRecord(world, old);
      expect(record.deleting_since, point).toEqual(expect.any(String));
      expect(record.deleted ?? false).toBe(point === 'prune-deleted');
      expect(exists(old)).toBe(point === 'prune-deleting');
      const sent = requestsFrom(sandbox);
      const finished = await prune(world, 'a');
      expect(finished.exitCode, finished.stderr).toBe(0);
      expect(JSON.parse(finished.stdout)[0]).toMatchObject({
        api_key: old,
        result: point === 'prune-deleting' ? 'deleted' : 'already deleted',
      });
      expect(sent().filter((request) => request.method === 'DELETE')).toHaveLength(point === 'prune-deleting' ? 1 : 0);
      expect(deletesOf(old)).toHaveLength(1);
      expect(exists(old)).toBe(false);
      expect(existsSync(recordPath(world, old))).toBe(false);
      expect(existsSync(join(world.configDir, 'keys', `${old}.pem`))).toBe(false);
    }
  });

  it('a DELETE whose answer is lost after the key went: found gone on the retry, counted as deleted', async () => {
    const world = fleet(sandbox, ['a']);
    const { old } = await rotateKeeping(world, 'a');
    makeDue(world, old);
    sandbox.server.faults.add({ method: 'DELETE', fault: { kind: 'reset', afterProcessing: true } });
    const result = await prune(world, 'a');
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ api_key: old, result: 'already deleted' });
    expect(deletesOf(old)).toHaveLength(1);
    expect(existsSync(recordPath(world, old))).toBe(false);
  });

  it('a service failing every DELETE: exit 8, one line, the record kept for the next prune', async () => {
    const world = fleet(sandbox, ['a']);
    const { old } = await rotateKeeping(world, 'a');
    makeDue(world, old);
    sandbox.server.faults.add({ method: 'DELETE', fault: { kind: 'status', status: 503 }, times: 10 });
    const result = await prune(world, 'a', ['--retries', '0']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toMatch(new RegExp(`^trident: key ${old} was not deleted: .*503.*\\nhint: .+\\n$`));
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ api_key: old, result: 'failed' });
    expect(exists(old)).toBe(true);
    expect(readRecord(world, old).deleting_since).toEqual(expect.any(String));
    sandbox.server.faults.clear();
    const again = await prune(world, 'a');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(exists(old)).toBe(false);
  });

  it('one prune at a time: a live holder of the lock is refused at once; two prunes started together delete once', async () => {
    const world = fleet(sandbox, ['a']);
    const { old } = await rotateKeeping(world, 'a');
    makeDue(world, old);
    const lock = join(world.configDir, 'overlap', 'prune.lock');
    writeFileSync(lock, `${process.pid} ${processStartTime(process.pid) ?? ''}\n`, { mode: 0o600 });
    const refused = await prune(world, 'a');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      `trident: another trident keys prune (pid ${process.pid}) is running on this config dir\nhint: let it finish; a prune killed midway is finished by the next one\n`,
    );
    expect(exists(old)).toBe(true);
    writeFileSync(lock, '999999999\n', { mode: 0o600 });
    const both = await Promise.all(
      [0, 1].map(() => spawnCli(['--profile', 'a', 'keys', 'prune', '-o', 'json'], { configDir: world.configDir })),
    );
    const codes = both.map((run) => run.exitCode).sort();
    expect([
      [0, 0],
      [0, 2],
    ]).toContainEqual(codes);
    expect(deletesOf(old)).toHaveLength(1);
    expect(existsSync(recordPath(world, old))).toBe(false);
  });

  it('a --keep-old-for rotation killed midway: --resume records the old key once, with the time of the finished rotation', async () => {
    const world = fleet(sandbox, ['a']);
    const old = world.keys.a!;
    const plan = await keysAs(world, 'a', ['rotate', '--keep-old-for', '24h', '--dry-run', '-o', 'json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).steps).toContainEqual({
      step: 'delete-old',
      action: 'skip: kept 1 day (recorded in <config dir>/overlap/), then deleted by trident keys prune',
    });
    const killed = await keysAs(world, 'a', ['rotate', '--keep-old-for', '24h', '--yes', '-o', 'json'], {
      env: { [CRASH_ENV]: 'verified' },
    });
    expect(killed.exitCode).not.toBe(0);
    expect(existsSync(recordPath(world, old))).toBe(false);
    const before = Date.now();
    const resumed = await keysAs(world, 'a', ['rotate', '--resume', '--yes', '-o', 'json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout);
    expect(report).toMatchObject({ outcome: 'rotated', old_key_deleted: false });
    expect(Date.parse(report.kept_until)).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(readRecord(world, old)).toMatchObject({
      version: 1,
      api_key: old,
      profile: 'a',
      url: sandbox.url,
      kept_until: report.kept_until,
      rotated_to: report.new_key.api_key,
      private_key_file: join(world.configDir, 'keys', `${old}.pem`),
      file_created_by_trident: true,
    });
    expect(exists(old)).toBe(true);
    expect(deletesOf(old)).toEqual([]);
  });

  it('leaves a record of another service to a prune against it, and refuses the key given by TRIDENT_KEY_ID', async () => {
    const world = fleet(sandbox, ['a']);
    const { old, fresh } = await rotateKeeping(world, 'a');
    makeDue(world, old);
    const other = 'http://127.0.0.1:9/trade-api/v2';
    writeFileSync(recordPath(world, old), JSON.stringify({ ...readRecord(world, old), url: other }), { mode: 0o600 });
    const sent = requestsFrom(sandbox);
    const elsewhere = await prune(world, 'a');
    expect(elsewhere.exitCode, elsewhere.stderr).toBe(0);
    expect(JSON.parse(elsewhere.stdout)[0]).toMatchObject({ api_key: old, result: 'other service' });
    expect(elsewhere.stderr).toContain(`prune: key ${old} belongs to ${other}, not ${sandbox.url}`);
    expect(sent()).toEqual([]);
    writeFileSync(recordPath(world, old), JSON.stringify({ ...readRecord(world, old), url: sandbox.url }), { mode: 0o600 });
    const env = {
      TRIDENT_KEYS_URL: sandbox.url,
      TRIDENT_KEY_ID: old,
      TRIDENT_PRIVATE_KEY_FILE: join(world.configDir, 'keys', `${old}.pem`),
    };
    const refused = await runCli(['keys', 'prune', '-o', 'json'], { configDir: world.configDir, env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      `trident: key ${old} is due for pruning but the key id given by --key-id or TRIDENT_KEY_ID uses it now: not deleted, its record is kept\n`,
    );
    expect(exists(old)).toBe(true);
    expect(exists(fresh)).toBe(true);
    expect(existsSync(recordPath(world, old))).toBe(true);
  });

  it('refuses bad input before anything is sent, and loses nothing', async () => {
    const world = fleet(sandbox, ['a']);
    const keyA = world.keys.a!;
    const sent = requestsFrom(sandbox);
    for (const [args, message] of [
      [['--keep-old-for', '0h'], 'trident: --keep-old-for must be a positive age such as 90d, 36h, 30m or 2w, not "0h"\n'],
      [['--keep-old-for', '-1h'], 'trident: --keep-old-for must be a positive age such as 90d, 36h, 30m or 2w, not "-1h"\n'],
    ] as Array<[string[], string | RegExp]>) {
      const result = await keysAs(world, 'a', ['rotate', '--yes', ...args]);
      expect(result.exitCode, args.join(' ')).toBe(2);
      if (typeof message === 'string') expect(result.stderr).toBe(message);
      else expect(result.stderr).toMatch(message);
    }
    expect(sent()).toEqual([]);
    expect(exists(keyA)).toBe(true);

    const { old } = await rotateKeeping(world, 'a');
    makeDue(world, old);
    chmodSync(recordPath(world, old), 0o666);
    const planted = requestsFrom(sandbox);
    const refused = await prune(world, 'a');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/^trident: .*overlap record .*\n/);
    expect(planted()).toEqual([]);
    chmodSync(recordPath(world, old), 0o600);
    writeFileSync(recordPath(world, old), '{"version":1,"api_key":', { mode: 0o600 });
    const broken = await prune(world, 'a');
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toBe(
      `trident: the overlap record ${recordPath(world, old)} is not one this version of trident understands\nhint: it keeps an old key for keys prune: repair it, or remove it and delete the key yourself with trident keys delete\n`,
    );
    expect(planted()).toEqual([]);
    expect(exists(old)).toBe(true);
  });
});
