import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { itWithTools } from '../helpers/system-tools.js';

const COMMITTED = { bash: 'completions/trident.bash', zsh: 'completions/_trident', fish: 'completions/trident.fish' } as const;

async function script(shell: keyof typeof COMMITTED): Promise<string> {
  const result = await runCli(['completion', shell]);
  expect(result.exitCode).toBe(0);
  return result.stdout;
}

/** Runs bash's completion function for the words typed so far (the last one is being completed). */
function complete(bashScript: string, words: string[]): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'trident-completion-')), 'trident.bash');
  writeFileSync(file, bashScript);
  const program = `source ${JSON.stringify(file)}
COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')})
COMP_CWORD=${words.length - 1}
_trident
printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '-c', program], { encoding: 'utf8', cwd: join(file, '..') })
    .split('\n')
    .filter(Boolean);
}

describe('completion scripts', () => {
  it.each(Object.entries(COMMITTED))('committed %s script matches the command tree (run `npm run completions`)', async (shell, file) => {
    expect(readFileSync(file, 'utf8')).toBe(await script(shell as keyof typeof COMMITTED));
  });

  it('bash completes groups, subcommands, options, enum values and files', async () => {
    const bash = await script('bash');
    expect(complete(bash, ['trident', ''])).toEqual([
      'keys',
      'time',
      'catalog',
      'config',
      'status',
      'api',
      'sandbox',
      'completion',
      'version',
    ]);
    expect(complete(bash, ['trident', 'con'])).toEqual(['config']);
    expect(complete(bash, ['trident', 'config', 'p'])).toEqual(['profiles', 'path']);
    expect(complete(bash, ['trident', '--profile', 'x', 'config', 'un'])).toEqual(['unset']);
    expect(complete(bash, ['trident', 'config', 'list', '-o', ''])).toEqual(['table', 'json', 'ndjson', 'csv', 'tsv']);
    expect(complete(bash, ['trident', 'config', 'list', '--no-'])).toEqual(['--no-header', '--no-color', '--no-input']);
    expect(complete(bash, ['trident', 'completion', 'f'])).toEqual(['fish']);
    expect(complete(bash, ['trident', 'status', '--service', ''])).toEqual(['keys', 'time', 'catalog']);
    expect(complete(bash, ['trident', 'api', 'c'])).toEqual(['catalog']);
    expect(complete(bash, ['trident', 'api', '--i'])).toEqual(['--include', '--input']);
    expect(complete(bash, ['trident', '--ca-file', 'trid'])).toEqual(['trident.bash']);
  });

  it('bash offers the fields a command’s --columns takes, one after another in its comma-separated list', async () => {
    const bash = await script('bash');
    expect(complete(bash, ['trident', 'keys', 'list', '--columns', ''])).toEqual([
      'api_key',
      'name',
      'given_name',
      'scopes',
      'created_ts',
      'subaccount',
      'in_use',
      'age_seconds',
    ]);
    expect(complete(bash, ['trident', 'keys', 'list', '--columns', 'api_key,na'])).toEqual(['api_key,name']);
    expect(complete(bash, ['trident', '--profile', 'x', 'catalog', 'products', '--columns', 'title,canon'])).toEqual([
      'title,canonical_product_id',
    ]);
    // A command that declares no fields offers nothing to choose from.
    expect(complete(bash, ['trident', 'config', 'get', '--columns', ''])).toEqual([]);
  });

  itWithTools(['zsh'], 'zsh offers the same fields after the last comma, with no space after them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-completion-')), 'script.zsh');
    writeFileSync(file, await script('zsh'));
    // compset and compadd stand in for the completion system's: what is offered, and with which options.
    const program = `compdef() { : }
compset() { print -r -- "compset $*" }
compadd() { print -r -- "compadd $*" }
source ${JSON.stringify(file)}
words=(trident keys prune --columns 'api_key,pro')
CURRENT=5
_trident`;
    expect(execFileSync('zsh', ['-f', '-c', program], { encoding: 'utf8' }).trim().split('\n')).toEqual([
      'compset -P *,',
      'compadd -S  -- api_key profile kept_until result error',
    ]);
  });

  itWithTools(['fish'], 'fish offers the same fields after the last comma', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'trident-completion-')), 'script.fish');
    writeFileSync(file, await script('fish'));
    const offered = execFileSync(
      'fish',
      ['--no-config', '-c', `source ${JSON.stringify(file)}; complete -C 'trident keys prune --columns api_key,pro'`],
      {
        encoding: 'utf8',
      },
    );
    expect(offered.trim().split('\n')).toEqual(['api_key,profile']);
  });

  for (const [shell, check] of [
    ['zsh', ['-n']],
    ['fish', ['--no-execute']],
  ] as const) {
    itWithTools([shell], `the ${shell} script is valid ${shell} syntax`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'trident-completion-')), `script.${shell}`);
      writeFileSync(file, await script(shell));
      expect(() => execFileSync(shell, [...check, file], { stdio: 'pipe' })).not.toThrow();
    });
  }

  it('refuses an unknown shell with exit 2', async () => {
    expect((await runCli(['completion', 'powershell'])).exitCode).toBe(2);
  });
});
