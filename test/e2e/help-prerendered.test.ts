// The help the build renders (scripts/render-help.mjs) and bin/trident.cjs prints for an exact
// `trident [<group> [<command>]] --help|-h` to a pipe or a file: it must be the live rendering, byte for byte,
// for every command, whatever the environment. (On a terminal the launcher takes the live path: the help is
// wrapped to the terminal's width, which help-terminal.test.ts holds at 80 and 200 columns.)
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, runCli, tempConfigDir } from '../helpers/cli.js';

const ROOT = resolve(import.meta.dirname, '../..');
/** The build the test run made (test/global-setup.ts). */
const BUILD = join(ROOT, '.test-build');
const rendered = (path: string[]) => readFileSync(join(BUILD, 'dist/help', `${(path.length ? path : ['index']).join('/')}.txt`), 'utf8');

/** The live rendering of every command's help in a process with `env`: { "keys list": text, ... }. */
function liveRenderings(env: Record<string, string>): Record<string, string> {
  const script = `
    import { createRequire } from 'node:module';
    import { renderAll } from ${JSON.stringify(join(ROOT, 'scripts/render-help.mjs'))};
    const cli = createRequire(import.meta.url)(${JSON.stringify(join(BUILD, 'dist/cli.cjs'))});
    process.stdout.write(JSON.stringify(await renderAll(cli, process.env)));`;
  const dir = mkdtempSync(join(tmpdir(), 'trident-help-'));
  try {
    writeFileSync(join(dir, 'live.mjs'), script);
    return JSON.parse(execFileSync(process.execPath, [join(dir, 'live.mjs')], { env, encoding: 'utf8', maxBuffer: 1 << 26 })) as Record<
      string,
      string
    >;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('prerendered help', () => {
  const plain = { PATH: process.env.PATH ?? '', TRIDENT_CONFIG_DIR: tempConfigDir() };
  // Everything that could plausibly change a rendering: width, colour, locale, time zone, settings, output.
  const unusual = {
    ...plain,
    COLUMNS: '30',
    LINES: '10',
    NO_COLOR: '1',
    FORCE_COLOR: '3',
    CLICOLOR_FORCE: '1',
    TERM: 'xterm-256color',
    LANG: 'ru_RU.UTF-8',
    LC_ALL: 'C',
    TZ: 'Asia/Tokyo',
    HOME: '/nonexistent',
    CI: '1',
    TRIDENT_PROFILE: 'staging',
    TRIDENT_OUTPUT: 'json',
    TRIDENT_DEBUG: '1',
    TRIDENT_TIMEOUT: '5',
    TRIDENT_KEYS_URL: 'https://keys.example.com/trade-api/v2',
  };

  it('exists for every command, and is the live rendering in a plain and in an unusual environment', () => {
    const live = liveRenderings(plain);
    const files = readdirSync(join(BUILD, 'dist/help'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.txt'));
    expect(files.length).toBe(Object.keys(live).length);
    expect(Object.keys(live).length).toBeGreaterThan(40);
    for (const [path, text] of Object.entries(live)) expect([path, rendered(path ? path.split(' ') : [])]).toEqual([path, text]);
    expect(liveRenderings(unusual)).toEqual(live);
  }, 60_000);

  it('is what the binary prints for --help and -h of every command, exit 0, nothing on stderr', async () => {
    const paths = readdirSync(join(BUILD, 'dist/help'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.txt'))
      .map((file) => (file === 'index.txt' ? [] : file.slice(0, -4).split('/')));
    for (let at = 0; at < paths.length; at += 4) {
      await Promise.all(
        paths.slice(at, at + 4).map(async (path) => {
          const flag = at % 8 === 0 ? '-h' : '--help';
          expect([path, await runCli([...path, flag])]).toEqual([path, { exitCode: 0, stdout: rendered(path), stderr: '' }]);
        }),
      );
    }
  }, 120_000);

  describe('served by the launcher', () => {
    // A copy of the package whose rendered help is marked, to see which path answered.
    const copy = mkdtempSync(join(tmpdir(), 'trident-launcher-'));
    cpSync(BUILD, copy, { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, 'dist/help/keys/list.txt'), 'RENDERED\n');
    afterAll(() => rmSync(copy, { recursive: true, force: true }));
    const run = (args: string[], stdout: 'pipe' | number = 'pipe') =>
      execFileSync(process.execPath, [join(copy, 'bin/trident.cjs'), ...args], {
        env: childEnv({}) as NodeJS.ProcessEnv,
        encoding: 'utf8',
        stdio: ['ignore', stdout, 'pipe'],
      });

    it('for the exact command line, to a pipe or a file', () => {
      expect(run(['keys', 'list', '--help'])).toBe('RENDERED\n');
      expect(run(['keys', 'list', '-h'])).toBe('RENDERED\n');
      const file = join(copy, 'help.txt');
      const fd = openSync(file, 'w');
      try {
        run(['keys', 'list', '--help'], fd);
      } finally {
        closeSync(fd);
      }
      expect(readFileSync(file, 'utf8')).toBe('RENDERED\n');
    });

    it('never for a name that leaves dist/help/ (`..`): the CLI answers, as it does for that command line', () => {
      writeFileSync(join(copy, 'dist/secret.txt'), 'LEAKED\n');
      const launch = (args: string[]) =>
        spawnSync(process.execPath, [join(copy, 'bin/trident.cjs'), ...args], {
          env: childEnv({}) as NodeJS.ProcessEnv,
          encoding: 'utf8',
          timeout: 30_000,
        });
      for (const args of [
        ['..', 'secret', '--help'],
        ['keys/../../secret', '--help'],
        ['.', '--help'],
      ]) {
        const result = launch(args);
        // -q makes the command line one the launcher never serves: the CLI's own answer.
        const live = launch([...args, '-q']);
        expect([args, result.status, result.stdout, result.stderr]).toEqual([args, live.status, live.stdout, live.stderr]);
        expect(result.stdout).not.toContain('LEAKED');
      }
    });

    it('not for any other command line: the CLI renders those', () => {
      for (const args of [
        ['--profile', 'x', 'keys', 'list', '--help'],
        ['keys', 'list', '--help', '-o', 'json'],
        ['help', 'keys', 'list'],
      ]) {
        expect([args, run(args)]).toEqual([args, rendered(['keys', 'list'])]);
      }
    });
  });
});
