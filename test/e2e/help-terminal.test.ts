// Help as a person reads it on a terminal of 80 and 200 columns: every line fits, no word is broken, and
// a wider terminal gets longer lines rather than the same narrow ones.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { SANDBOX_TIME_USER } from '../../src/sandbox/time/endpoints.js';
import { runCli } from '../helpers/cli.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { inTerminal } from '../helpers/terminal.js';

async function helpOn(args: string[], columns: number): Promise<string[]> {
  const run = inTerminal([...args, '--help'], {}, { columns, term: 'dumb' });
  expect(await run.exitCode()).toBe(0);
  return run.screen().replace(/\r\n/g, '\n').trimEnd().split('\n');
}

/** The words of a help text, whatever its line breaks (an example's " \" continuation included). */
const words = (lines: string[]) => lines.join('\n').replace(/ \\\n/g, ' ').split(/\s+/).filter(Boolean);

describeWithTools(['script'], 'help on a terminal', () => {
  it.each([
    ['time'],
    ['keys'],
    ['catalog'],
    ['config'],
    ['sandbox'],
    ['keys', 'rotate'],
    ['time', 'customer-update'],
    ['catalog', 'dynamics'],
  ])('%j --help fits 80 and 200 columns and breaks no word', async (...args) => {
    const narrow = await helpOn(args, 80);
    const wide = await helpOn(args, 200);
    for (const line of narrow) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    for (const line of wide) expect(stringWidth(line), line).toBeLessThanOrEqual(200);
    // The same words at both widths: nothing was cut or split inside a word.
    expect(words(narrow)).toEqual(words(wide));
  });

  it('trident --help at 200 columns keeps an option and its description on one line', async () => {
    const wide = await helpOn([], 200);
    expect(wide.find((line) => line.includes('-o, --output <format>'))).toContain('tsv when piped) (choices:');
    const narrow = await helpOn([], 80);
    expect(narrow.find((line) => line.includes('-o, --output <format>'))).not.toContain('(choices:');
  });

  it('help piped (no terminal) is wrapped at 80 columns, also the help a group alone prints on stderr', async () => {
    const help = await runCli(['time', '--help']);
    for (const line of help.stdout.trimEnd().split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    const bare = await runCli(['time']);
    expect(bare.exitCode).toBe(2);
    expect(bare.stderr).toContain('Usage: trident time');
    for (const line of bare.stderr.trimEnd().split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
  });

  it('an error stays one line, however long', async () => {
    const option = `--${'x'.repeat(120)}`;
    const result = await runCli(['keys', 'list', option]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`trident: unknown option '${option}'`);
  });
});

describe('sandbox --help', () => {
  it("names the time service's user and password, and how to log in again", async () => {
    const help = (await runCli(['sandbox', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`${SANDBOX_TIME_USER.email}, password ${SANDBOX_TIME_USER.password}`);
    expect(help).toContain('trident time login --profile sandbox');
  });
});
