// Help as a user reads it: every group with examples, every config command with a description, and
// `trident help <group> <command>` showing that command's help.
import { describe, expect, it } from 'vitest';
import { SETTING_KEYS } from '../../src/core/files/settings.js';
import { runCli } from '../helpers/cli.js';

describe('group help', () => {
  it.each(['keys', 'time', 'catalog', 'config', 'sandbox', 'completion'])('%s --help has examples of the group', async (group) => {
    const help = await runCli([group, '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('\nExamples:\n  $ ');
    expect(help.stdout.split('\nExamples:\n')[1]).toMatch(new RegExp(`^  \\$ .*trident ${group} `, 'm'));
  });
});

describe('config command help', () => {
  it.each(['set', 'get', 'unset', 'list', 'profiles', 'path'])('config %s --help has a description under its usage line', async (name) => {
    const help = await runCli(['config', name, '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: trident config ${name} .*\\n\\n[A-Z][^\\n]+\\n`));
  });

  it.each(['set', 'get', 'unset'])('config %s --help lists every setting it accepts', async (name) => {
    const settings = (await runCli(['config', name, '--help'])).stdout.split('\nSettings:\n')[1] ?? '';
    for (const key of SETTING_KEYS) expect(settings).toMatch(new RegExp(`^  ${key.replace('.', '\\.')} `, 'm'));
    expect(settings).toContain('bearer, raw');
  });

  it('config get and list say what an unset key does and that secrets are never shown', async () => {
    const get = (await runCli(['config', 'get', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(get).toContain('prints nothing on stdout and exits 5');
    expect(get).toContain('never shown');
    expect((await runCli(['config', 'list', '--help'])).stdout.replace(/\s+/g, ' ')).toContain('never shown');
  });
});

describe('trident help <command>...', () => {
  it.each([[['keys', 'list']], [['config', 'set']], [['time', 'projects', 'get']], [['catalog']]])(
    'help %j prints what --help prints',
    async (names) => {
      const viaHelp = await runCli(['help', ...names]);
      const viaFlag = await runCli([...names, '--help']);
      expect(viaHelp).toEqual({ exitCode: 0, stdout: viaFlag.stdout, stderr: '' });
      expect(viaHelp.stdout).toMatch(new RegExp(`^Usage: trident ${names.join(' ')} `));
    },
  );

  it('global options may come first', async () => {
    const help = await runCli(['--profile', 'ci', 'help', 'keys', 'list']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: trident keys list /);
  });

  it('help alone prints the root help', async () => {
    const help = await runCli(['help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: trident \[options\] \[command\]/);
  });

  it.each([
    [['nosuch'], 'nosuch', 'commands of "trident": keys, time, catalog, config, status, api, sandbox, completion, version'],
    [
      ['keys', 'nosuch'],
      'nosuch',
      'commands of "trident keys": setup, list, create, generate, delete, rotate, audit, prune, move-to-keyring, move-to-file',
    ],
    [['keys', 'list', 'extra'], 'extra', '"trident keys list" has no commands'],
  ])('help %j is a usage error of one line and a hint', async (names, unknown, hint) => {
    const result = await runCli(['help', ...names]);
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `trident: unknown command '${unknown}'\nhint: ${hint}\n` });
  });
});
