// --jq: the engine against the examples of jq's manual (jq 1.8), gh's printing rules, the check that
// compiles without running, the Output hook and the option's rules in the Context.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/context.js';
import { ExitCode } from '../../../src/core/errors.js';
import { applyJq, checkJq, runJq } from '../../../src/core/term/jq.js';
import { Output } from '../../../src/core/term/output/output.js';
import { rejectionOf, thrownBy } from '../keys/fixtures.js';

interface ManualExample {
  program: string;
  input: string;
  output?: string[];
  fails?: 'compile' | 'error';
}

const examples = JSON.parse(readFileSync(new URL('./jq-manual-examples.json', import.meta.url), 'utf8')) as ManualExample[];

describe("jq's manual examples", () => {
  it.each(examples.filter((example) => example.output).map((example) => [example.program, example] as const))(
    '%s',
    async (_name, example) => {
      const { results, error } = await runJq(example.program, JSON.parse(example.input));
      expect(error).toBeUndefined();
      expect(results.map((line) => JSON.parse(line))).toEqual(example.output!.map((line) => JSON.parse(line)));
    },
  );

  it.each(examples.filter((example) => example.fails === 'compile').map((example) => [example.program] as const))(
    '%s is refused when checked',
    async (program) => {
      expect((await rejectionOf(checkJq(program))).exitCode).toBe(ExitCode.usage);
    },
  );

  it.each(examples.filter((example) => example.fails === 'error').map((example) => [example.program, example] as const))(
    '%s fails at run time',
    async (_name, example) => {
      await checkJq(example.program);
      expect((await runJq(example.program, JSON.parse(example.input))).error).toMatch(/\S/);
    },
  );
});

async function printed(expression: string, value: unknown): Promise<string> {
  let text = '';
  await applyJq(expression, value, async (chunk) => void (text += chunk));
  return text;
}

describe('applyJq prints as gh --jq', () => {
  it('prints strings raw, blanks and newlines kept, and other results as compact JSON, one a line', async () => {
    expect(await printed('.a, .b, .c, .d', { a: '  padded  ', b: 'two\nlines', c: [1, { x: null }], d: null })).toBe(
      '  padded  \ntwo\nlines\n[1,{"x":null}]\nnull\n',
    );
  });

  it('keeps the digits of numbers as they came and prints nothing for no result', async () => {
    expect(await printed('.[]', [1.5, 100000000000000000001n.toString()])).toBe('1.5\n100000000000000000001\n');
    expect(await printed('empty', {})).toBe('');
  });

  it('prints the results before a failure, then fails with exit 2 on one line', async () => {
    let text = '';
    const error = await rejectionOf(
      applyJq('.[] | if . == 2 then error("boom") else . end', [1, 2, 3], async (chunk) => void (text += chunk)),
    );
    expect(text).toBe('1\n');
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe('--jq failed on the output: boom');
  });
});

describe('checkJq', () => {
  it('compiles without running: an endless or failing program passes (an endless one run would outlast the test)', async () => {
    await checkJq('repeat(.)');
    await checkJq('error("x")');
    await checkJq('input');
  });

  it('names the syntax error on one line, with a hint', async () => {
    const error = await rejectionOf(checkJq('.a['));
    expect(error.message).toBe('invalid --jq expression: syntax error, unexpected end of file at <top-level>, line 1, column 3');
    expect(error.hint).toMatch(/jq/);
    expect((await rejectionOf(checkJq('nosuch(1)'))).message).toBe(
      'invalid --jq expression: nosuch/1 is not defined at <top-level>, line 1, column 1',
    );
  });
});

describe('the Output hook', () => {
  function capture() {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk) => (text += chunk));
    const filter = (expression: string) => (value: unknown, write: (text: string) => Promise<void>) => applyJq(expression, value, write);
    return { stream, text: () => text, filter };
  }

  it('gives jq the whole list as one array, as -o json prints it, streamed rows included', async () => {
    const { stream, text, filter } = capture();
    async function* rows() {
      yield { id: 1, name: 'a' };
      yield { id: 2, name: 'b' };
    }
    const output = new Output(stream, 'json', false, filter('length, .[1].name'));
    expect(await output.list(rows(), [], (row) => ({ id: row.id, name: row.name }))).toBe(2);
    expect(text()).toBe('2\nb\n');
  });

  it('filters one object', async () => {
    const { stream, text, filter } = capture();
    await new Output(stream, 'json', false, filter('.api_key')).object({ api_key: 'k1', used: true });
    expect(text()).toBe('k1\n');
  });
});

describe('--jq in the Context', () => {
  const io = () => ({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: Readable.from([]) });
  const env = (extra: NodeJS.ProcessEnv = {}) => ({
    TRIDENT_CONFIG_DIR: join(mkdtempSync(join(tmpdir(), 'trident-jq-')), 'config'),
    ...extra,
  });

  it('implies -o json, over TRIDENT_OUTPUT too', () => {
    expect(createContext({ jq: '.' }, { io: io(), env: env({ TRIDENT_OUTPUT: 'tsv' }) }).format).toBe('json');
    expect(createContext({ jq: '.', output: 'json' }, { io: io(), env: env() }).format).toBe('json');
  });

  it('is a usage error with another -o', () => {
    for (const output of ['csv', 'tsv', 'ndjson', 'table'] as const) {
      const error = thrownBy(() => createContext({ jq: '.', output }, { io: io(), env: env() }));
      expect(error.exitCode).toBe(ExitCode.usage);
      expect(error.message).toBe(`--jq filters JSON output: it cannot be used with -o ${output}`);
    }
  });
});

describe('the engine', () => {
  it('a program that exhausts its memory is a usage error naming --jq; the next program gets a fresh engine', async () => {
    const error = await rejectionOf(runJq('reduce range(40) as $i ("x"; . + .)', null));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe('--jq could not run this program: the jq engine ran out of memory');
    expect(await runJq('.a + 1', { a: 1 })).toEqual({ results: ['2'] });
  });

  // Last in the file: from here on its programs run in the worker.
  it('a program that outlasts its time on the main thread runs again in a worker, which serves what follows', async () => {
    expect(await runJq('now as $t | until(now - $t > 0.4; .) | .a', { a: 'slow' })).toEqual({ results: ['"slow"'] });
    expect(await runJq('.[] | select(. > 1)', [1, 2, 3])).toEqual({ results: ['2', '3'] });
    expect((await runJq('.a | tonumber', { a: 'x' })).error).toMatch(/cannot be parsed as a number/);
    const error = await rejectionOf(runJq('def f: [f]; f', null));
    expect(error.message).toBe('--jq could not run this program: the jq engine ran out of memory');
    expect(await runJq('length', [1, 2])).toEqual({ results: ['2'] });
  });
});
