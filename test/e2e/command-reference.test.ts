// docs/commands.md is the built CLI's help: written again from the binary under test, it must come out the same.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
// @ts-expect-error: a script in plain JavaScript
import * as script from '../../scripts/command-reference.mjs';
import { runCli } from '../helpers/cli.js';

type Help = (path: string[]) => Promise<string>;
const { HELP_ENV, OUTPUT, commandReference, listedCommands } = script as {
  HELP_ENV: Record<string, string>;
  OUTPUT: string;
  commandReference: (help: Help) => Promise<string>;
  listedCommands: (help: string) => string[];
};

it('docs/commands.md holds the help of every command as the built CLI prints it', async () => {
  const asked: string[] = [];
  const fresh = await commandReference(async (path) => {
    asked.push(path.join(' '));
    const result = await runCli([...path, '--help'], { env: HELP_ENV });
    expect(result.exitCode, `trident ${path.join(' ')} --help\n${result.stderr}`).toBe(0);
    expect(result.stderr).toBe('');
    return result.stdout;
  });
  // The walk found the groups and their commands, and those of a command with commands of its own.
  expect(asked).toEqual(
    expect.arrayContaining(['', 'keys', 'keys rotate', 'time projects', 'time projects get', 'catalog dynamics', 'sandbox']),
  );
  expect(readFileSync(OUTPUT, 'utf8'), 'docs/commands.md is out of date: run `npm run docs:commands`').toBe(fresh);
}, 120_000);

it('a help text lists its commands by name, aliases, options and wrapped descriptions left out', () => {
  const help = [
    'Usage: trident keys [options] [command]',
    '',
    'Commands:',
    '  list [options]                 list the API keys of the account',
    '  delete|rm [options] <ids...>   delete API keys, with a description that',
    '                                 wraps onto a second line',
    '  help [command]                 display help for command',
    '',
    'Examples:',
    '  $ trident keys list',
  ].join('\n');
  expect(listedCommands(help)).toEqual(['list', 'delete']);
  expect(listedCommands('Usage: trident version [options]\n')).toEqual([]);
});
