// `trident sandbox` seeding its demo catalog, as a person at a terminal sees it: a line on stderr says how many
// products are written, and is gone before the banner; Ctrl-C stops a long seeding at once and leaves no file
// behind. A stderr that is not a terminal, and -q, get nothing of it.
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { spawnCli, tempConfigDir } from '../helpers/cli.js';
import { finalScreen } from '../helpers/screen.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { inTerminal } from '../helpers/terminal.js';

const BANNER = 'trident sandbox is running (Ctrl-C to stop)';
const PROGRESS = /seeding products: \d+ of (1000|20000)/;
const filesDir = () => join(mkdtempSync(join(tmpdir(), 'trident-progress-sandbox-')), 'files');
const shown = (written: string) => finalScreen(written).filter((line) => line !== '');

describeWithTools(['script'], 'on a terminal', () => {
  it('says how many products are written, and the line is gone when the banner comes', async () => {
    const dir = filesDir();
    const run = inTerminal(['sandbox', '--port', '0', '--dir', dir, '--products', '1000'], { configDir: tempConfigDir() });
    await run.waitFor(BANNER);
    run.press('\u0003');
    // (The exit code is the shell's that `script` runs the command in: it heard the Ctrl-C too.)
    await run.exitCode();
    expect(run.screen()).toMatch(PROGRESS);
    expect(run.screen()).toContain('seeding products: building the indexes');
    const screen = shown(run.screen());
    expect(screen[0]).toBe(BANNER);
    expect(screen.at(-1)).toMatch(/sandbox stopped$/);
    expect(screen.join('\n')).not.toMatch(/seeding/);
    expect(readdirSync(dir).filter((name) => name.startsWith('catalog-'))).toEqual(['catalog-1000.db']);
  });

  it('Ctrl-C while seeding stops at once: the line is gone, and neither the catalog nor a part of it is left', async () => {
    const dir = filesDir();
    const configDir = tempConfigDir();
    const run = inTerminal(['sandbox', '--port', '0', '--dir', dir, '--products', '20000'], { configDir });
    await run.waitFor('seeding products: ');
    run.press('\u0003');
    // Stopped before the 20,000 products were written: no catalog, whatever the machine's speed.
    expect(await run.exitCode()).toBe(130);
    expect(shown(run.screen())).toEqual(['trident: interrupted']);
    expect(readdirSync(dir).filter((name) => name.startsWith('catalog-'))).toEqual([]);
    expect(existsSync(join(configDir, 'settings.json'))).toBe(false);
  });

  it('-q: the banner alone', async () => {
    const run = inTerminal(['-q', 'sandbox', '--port', '0', '--dir', filesDir(), '--products', '1000'], { configDir: tempConfigDir() });
    await run.waitFor(BANNER);
    run.press('\u0003');
    await run.exitCode();
    expect(run.screen()).not.toMatch(/seeding/);
    expect(shown(run.screen())[0]).toBe(BANNER);
  });
});

it('stderr not a terminal: nothing of the seeding on it', async () => {
  const configDir = tempConfigDir();
  const dir = filesDir();
  const sandbox = spawnCli(['sandbox', '--port', '0', '--dir', dir, '--products', '1000'], { configDir });
  let stdout = '';
  await new Promise<void>((resolve) =>
    sandbox.stdout!.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
      if (stdout.includes(BANNER)) resolve();
    }),
  );
  sandbox.kill('SIGINT');
  const result = await sandbox;
  expect(result.exitCode).toBe(130);
  expect(String(result.stderr)).toBe('sandbox stopped\n');
  expect(existsSync(join(dir, 'catalog-1000.db'))).toBe(true);
});
