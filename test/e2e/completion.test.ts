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
