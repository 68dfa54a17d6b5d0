// keys audit against the keys sandbox: a config dir with two profiles on one account, a key made on the web
// that nobody here holds, an old key, a rotation paused midway and an old key kept by --keep-old-for; what
// each is flagged, the policy exit code of --fail-on, and every output format.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import { runCli } from '../helpers/cli.js';
import { audit, fleet, heldKey, keysAs, profileKeyId, type Fleet } from '../helpers/keys-fleet.js';
import { requestsFrom } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const DAY_MS = 86_400_000;
/** The sandbox's clock runs this far from the real one while a test makes an old key. */
let clockOffsetMs = 0;
const sandbox = useKeysSandbox({ now: () => Date.now() + clockOffsetMs });

/** A key the service made 100 days ago, its private half in trident's key file and no profile using it. */
function oldKey(world: Fleet): string {
  clockOffsetMs = -100 * DAY_MS;
  try {
    return heldKey(sandbox, world.configDir, `${world.name}-old`);
  } finally {
    clockOffsetMs = 0;
  }
}

const webKey = (world: Fleet) =>
  sandbox.control.addKey({ name: `${world.name}-web`, publicKeyPem: sandbox.bootstrap.publicKeyPem }).api_key;

describe('keys audit', () => {
  it('joins the account with this machine: the key in use, which profile holds which key, unheld and old keys', async () => {
    const world = fleet(sandbox);
    const web = webKey(world);
    const old = oldKey(world);
    const sent = requestsFrom(sandbox);
    const { result, keys } = await audit(world, 'a', ['--max-age', '90d']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(sent()).toEqual([{ method: 'GET', path: '/trade-api/v2/api_keys' }]);
    const fileOf = (id: string) => join(world.configDir, 'keys', `${id}.pem`);
    expect(keys.get(world.keys.a!)).toMatchObject({
      in_use: true,
      flags: [],
      age_source: 'service',
      kept_until: null,
      held_by: [{ kind: 'profile', profile: 'a', file: fileOf(world.keys.a!), where: `profile "a" (${fileOf(world.keys.a!)})` }],
    });
    expect(keys.get(world.keys.b!)).toMatchObject({ in_use: false, flags: [], held_by: [{ kind: 'profile', profile: 'b' }] });
    expect(keys.get(web)).toMatchObject({ in_use: false, flags: ['unheld'], held_by: [] });
    expect(keys.get(old)).toMatchObject({ flags: ['old'], held_by: [{ kind: 'file', file: fileOf(old), profile: null }] });
    expect(keys.get(old)!.age_seconds).toBeGreaterThanOrEqual(100 * 86_400 - 60);
    expect(keys.get(world.keys.a!)!.age_seconds).toBeLessThan(600);
    // The bootstrap key of the sandbox: on the account, held by nobody on this machine.
    const all = JSON.parse(result.stdout) as Array<{ api_key: string; flags: string[] }>;
    expect(all.find((key) => key.api_key === sandbox.bootstrap.keyId)?.flags).toEqual(['unheld']);
  });

  it('a key given by TRIDENT_KEY_ID is held by the environment; without --max-age nothing is old', async () => {
    const world = fleet(sandbox, ['a']);
    const old = oldKey(world);
    const result = await runCli(['keys', 'audit', '-o', 'json'], {
      configDir: world.configDir,
      env: {
        TRIDENT_KEYS_URL: sandbox.url,
        TRIDENT_KEY_ID: sandbox.bootstrap.keyId,
        TRIDENT_PRIVATE_KEY_FILE: sandbox.bootstrap.privateKeyFile,
      },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const rows = new Map((JSON.parse(result.stdout) as Array<{ api_key: string }>).map((row) => [row.api_key, row]));
    expect(rows.get(sandbox.bootstrap.keyId)).toMatchObject({
      in_use: true,
      flags: [],
      held_by: [{ kind: 'environment', file: sandbox.bootstrap.privateKeyFile }],
    });
    expect(rows.get(old)).toMatchObject({ flags: [], in_use: false });
    expect(rows.get(world.keys.a!)).toMatchObject({ in_use: false, held_by: [{ kind: 'profile', profile: 'a' }] });
  });

  it('a rotation paused midway flags both of its keys rotating; --fail-on rotating exits 9', async () => {
    const world = fleet(sandbox);
    const before = world.keys.b!;
    const killed = await keysAs(world, 'b', ['rotate', '--yes', '-o', 'json'], { env: { [CRASH_ENV]: 'verified' } });
    expect(killed.exitCode).not.toBe(0);
    const after = profileKeyId(world, 'b');
    expect(after).not.toBe(before);
    const { result, keys } = await audit(world, 'a', ['--fail-on', 'rotating']);
    expect(result.exitCode).toBe(9);
    expect(keys.get(before)!.flags).toEqual(['rotating']);
    expect(keys.get(after)).toMatchObject({ flags: ['rotating'], held_by: [{ kind: 'profile', profile: 'b' }] });
    expect(keys.get(world.keys.a!)!.flags).toEqual([]);
    expect(result.stderr).toBe(
      `trident: policy check failed: 2 keys flagged rotating (${[...keys.values()]
        .filter((k) => k.flags.length)
        .map((k) => k.api_key)
        .join(', ')})\n` +
        'hint: unheld: delete the key or store its private half; old: trident keys rotate; rotating: trident keys rotate --resume or --abort; overlap: trident keys prune once it is due\n',
    );
    const resumed = await keysAs(world, 'b', ['rotate', '--resume', '--yes', '-o', 'json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const done = await audit(world, 'a', ['--fail-on', 'rotating']);
    expect(done.result.exitCode, done.result.stderr).toBe(0);
    expect(done.keys.has(before)).toBe(false);
  });

  it('an old key kept by --keep-old-for 1h: overlap until its time, still held, and the new key in use', async () => {
    const world = fleet(sandbox);
    const before = world.keys.a!;
    const started = Date.now();
    const rotated = await keysAs(world, 'a', ['rotate', '--keep-old-for', '1h', '--yes', '-o', 'json']);
    expect(rotated.exitCode, rotated.stderr).toBe(0);
    const report = JSON.parse(rotated.stdout);
    expect(report).toMatchObject({ outcome: 'rotated', old_key_deleted: false });
    const until = Date.parse(report.kept_until);
    expect(until).toBeGreaterThanOrEqual(started + 3_600_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(report.steps).toContainEqual(expect.objectContaining({ step: 'delete-old', status: 'skipped', kept_until: report.kept_until }));
    const { result, keys } = await audit(world, 'a', ['--fail-on', 'overlap']);
    expect(result.exitCode).toBe(9);
    expect(keys.get(before)).toMatchObject({
      in_use: false,
      flags: ['overlap'],
      kept_until: report.kept_until,
      held_by: [{ kind: 'file', file: join(world.configDir, 'keys', `${before}.pem`) }],
    });
    expect(keys.get(report.new_key.api_key)).toMatchObject({ in_use: true, flags: [] });
    const table = await keysAs(world, 'a', ['audit', '-o', 'table', '--columns', 'api_key,flags']);
    expect(table.stdout).toContain(`overlap until ${report.kept_until}`);
  });

  it('refuses bad --fail-on and --max-age with one line, exit 2 and nothing sent', async () => {
    const world = fleet(sandbox, ['a']);
    const sent = requestsFrom(sandbox);
    const cases: Array<[string[], string]> = [
      [
        ['--fail-on', 'unheld,stale'],
        'trident: unknown flag "stale" in --fail-on "unheld,stale"\nhint: the flags are: unheld, old, rotating, overlap (separated by commas)\n',
      ],
      [['--fail-on', 'old'], 'trident: --fail-on old needs --max-age, the age past which a key is old (e.g. 90d)\n'],
      [['--max-age', '0d'], 'trident: --max-age must be a positive age such as 90d, 36h, 30m or 2w, not "0d"\n'],
      [['--max-age', 'soon'], 'trident: --max-age must be a positive age such as 90d, 36h, 30m or 2w, not "soon"\n'],
    ];
    for (const [args, stderr] of cases) {
      const result = await keysAs(world, 'a', ['audit', ...args]);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(stderr);
      expect(result.stdout).toBe('');
    }
    expect(sent()).toEqual([]);
  });

  it('--fail-on unheld,old: exit 9 naming the keys, after the whole output; a clean policy exits 0', async () => {
    const world = fleet(sandbox, ['a']);
    const old = oldKey(world);
    const web = webKey(world);
    const { result, keys } = await audit(world, 'a', ['--max-age', '90d', '--fail-on', 'old,unheld']);
    expect(result.exitCode).toBe(9);
    expect(keys.size).toBe(3);
    expect(result.stderr).toMatch(/^trident: policy check failed: \d+ keys flagged old, unheld \([^)]*\)\nhint: .+\n$/);
    expect(result.stderr).toContain(old);
    expect(result.stderr).toContain(web);
    expect(result.stderr).not.toContain(world.keys.a!);
    const clean = await audit(world, 'a', ['--max-age', '200d', '--fail-on', 'old,overlap']);
    expect(clean.result.exitCode, clean.result.stderr).toBe(0);
    expect(clean.result.stderr).toBe('');
  });

  it('every output format and --jq', async () => {
    const world = fleet(sandbox, ['a']);
    const web = webKey(world);
    const run = (args: string[]) => keysAs(world, 'a', ['audit', ...args]);
    const csv = await run(['-o', 'csv']);
    expect(csv.exitCode, csv.stderr).toBe(0);
    const [header, ...lines] = csv.stdout.trim().split('\n');
    expect(header).toBe('api_key,name,scopes,subaccount,created_ts,age_seconds,age_source,in_use,held_by,flags,kept_until');
    expect(lines.find((line) => line.startsWith(web))).toMatch(/,unheld,$/);
    const inUse = lines.find((line) => line.startsWith(world.keys.a!));
    expect(inUse).toContain(
      `,true,"profile ""a"" (${join(world.configDir, 'keys', `${world.keys.a}.pem`)})",,
`.trim(),
    );
    const tsv = await run(['-o', 'tsv', '--columns', 'api_key,flags']);
    expect(tsv.stdout.split('\n')).toContain(`${web}\tunheld`);
    const ndjson = await run(['-o', 'ndjson']);
    const objects = ndjson.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(objects.find((row) => row.api_key === world.keys.a)).toMatchObject({ in_use: true, flags: [] });
    const table = await run(['-o', 'table']);
    expect(table.stdout).toMatch(/│ id +│ name +│ scopes +│ subaccount +│ age +│ age from +│ in use +│ held by +│ flags +│/);
    expect(table.stdout).toContain(`profile "a" (${join(world.configDir, 'keys', `${world.keys.a}.pem`)})`);
    const jq = await run(['--jq', '.[] | select(.flags | index("unheld")) | .api_key']);
    expect(jq.exitCode, jq.stderr).toBe(0);
    expect(jq.stdout.split('\n')).toContain(web);
    expect(jq.stdout.split('\n')).not.toContain(world.keys.a);
  });
});
