// keys move-to-keyring beside a rotation of the same profile, against a real Secret Service: refused while a
// rotation is paused (its journal names the old place, and --abort would point the profile back at it), and in
// seeded schedules of a move racing a rotation, the profile always ends with a key that signs, its private half
// where the profile says, and the rotation can always be ended.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CRASH_ENV } from '../../src/keys/crash-points.js';
import { Rng } from '../../src/sandbox/rng.js';
import { runCli, spawnCli, tempConfigDir } from '../helpers/cli.js';
import { runKeys } from '../helpers/keys-sandbox.js';
import { dirAccount, KEYRING_TOOLS } from '../helpers/keyring-session.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { useKeysSandbox, useKeyringSession } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

describeWithTools(KEYRING_TOOLS, 'a move beside a rotation of the same profile', () => {
  const keyring = useKeyringSession();

  /** The profile's own key and URL only; new keys go to files, so that the move has something to move. */
  const env = () => ({ ...keyring.env, TRIDENT_KEYS_URL: sandbox.url, TRIDENT_CREDENTIAL_STORE: 'file' });

  async function profileWithFileKey(configDir: string): Promise<{ id: string; file: string }> {
    const made = await runKeys(sandbox, ['generate', '--name', 'mover', '--use', '-o', 'json'], { configDir, env: env() });
    expect(made.exitCode, made.stderr).toBe(0);
    const { api_key: id, private_key_file: file } = JSON.parse(made.stdout);
    return { id, file };
  }

  /** The profile signs a request, and the place it names holds a private key. */
  async function expectProfileSigns(configDir: string, why: string): Promise<void> {
    const listed = await runCli(['keys', 'list', '-o', 'json'], { configDir, env: env() });
    expect(listed.exitCode, `${why}: ${listed.stderr}`).toBe(0);
    const place = (await runCli(['config', 'get', 'keys.privateKeyFile'], { configDir })).stdout.trim();
    const held = place.startsWith('keyring:') ? keyring.lookup(place.slice('keyring:trident/'.length)) : readFileSync(place, 'utf8');
    expect(held, `${why}: the profile names ${place}`).toMatch(/PRIVATE KEY-----/);
  }

  for (const phase of ['verified', 'switched'] as const) {
    it(`refused while a rotation is paused at "${phase}": nothing moved or removed, and --abort and --resume still end it`, async () => {
      const configDir = tempConfigDir();
      const { id, file } = await profileWithFileKey(configDir);
      const killed = await runCli(['keys', 'rotate', '--yes'], { configDir, env: { ...env(), [CRASH_ENV]: phase } });
      expect(killed.exitCode).not.toBe(0);
      const before = readFileSync(join(configDir, 'settings.json'), 'utf8');

      const moved = await runCli(['keys', 'move-to-keyring'], { configDir, env: env() });
      expect(moved.exitCode).toBe(2);
      expect(moved.stderr).toMatch(/^trident: a rotation of profile "default" is in progress \(started .+; journal .+\)\n/);
      expect(moved.stderr).toContain('hint: finish it with trident keys rotate --resume, or undo it with trident keys rotate --abort\n');
      expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).toBe(before);
      expect(existsSync(file)).toBe(true);
      expect(keyring.lookup(dirAccount(configDir, `keys/${id}`))).toBeUndefined();

      const ended = await runCli(['keys', 'rotate', phase === 'verified' ? '--abort' : '--resume', '--yes'], { configDir, env: env() });
      expect(ended.exitCode, ended.stderr).toBe(0);
      await expectProfileSigns(configDir, `after the ${phase === 'verified' ? 'abort' : 'resume'}`);
      const after = await runCli(['keys', 'move-to-keyring'], { configDir, env: env() });
      expect(after.exitCode, after.stderr).toBe(0);
      await expectProfileSigns(configDir, 'after the move');
    }, 60_000);
  }

  it('seeded schedules of a move racing a rotation: the profile always signs, and no rotation is left that cannot end', async () => {
    for (const seed of [11, 12, 13, 14, 15, 16]) {
      const random = new Rng(seed);
      const configDir = tempConfigDir();
      await profileWithFileKey(configDir);
      const rotation = spawnCli(['keys', 'rotate', '--yes'], { configDir, env: env() });
      const delay = random.int(0, 900);
      await new Promise((resolve) => setTimeout(resolve, delay));
      const move = await runCli(['keys', 'move-to-keyring'], { configDir, env: env() });
      const rotated = await rotation;
      const why = `seed ${seed} (move after ${delay} ms): rotate exit ${rotated.exitCode}, move exit ${move.exitCode} ${move.stderr}`;
      // The one that comes second may stop before it changes anything (exit 2); never both, never anything else.
      expect([0, 2], why).toContain(move.exitCode);
      expect([0, 2], `${why}; rotate said ${String(rotated.stderr)}`).toContain(rotated.exitCode);
      expect(move.exitCode === 0 || rotated.exitCode === 0, why).toBe(true);
      expect(
        existsSync(join(configDir, 'rotations')) ? readdirSync(join(configDir, 'rotations')).filter((name) => name.endsWith('.json')) : [],
        why,
      ).toEqual([]);
      await expectProfileSigns(configDir, why);
    }
  }, 120_000);
});
