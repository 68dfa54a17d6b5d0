// Every example in the catalog's help, run as written against the catalog `trident sandbox` serves (seeded
// the same way): each must exit 0 and print something, or the help teaches a command that finds nothing.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogDb } from '../../src/sandbox/catalog/seed/seed-catalog.js';
import { startCatalogSandbox, type CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import { BIN, childEnv, runCli } from '../helpers/cli.js';

const COMMANDS = [
  '',
  'health',
  'products',
  'product',
  'sources',
  'snapshots',
  'count',
  'common-count',
  'dynamics',
  'categories',
  'category',
  'settlements',
  'settlement',
  'cursors',
];
/** The catalog URL of a `trident sandbox` on its default ports, as the examples write it. */
const DEFAULT_SANDBOX_CATALOG = 'http://127.0.0.1:8702';

let sandbox: CatalogSandbox;

beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'trident-help-examples-')), 'catalog.db');
  seedCatalogDb(file, { products: 300 });
  sandbox = await startCatalogSandbox({ dbFile: file });
});
afterAll(() => sandbox.close());

async function helpExamples(command: string): Promise<string[]> {
  const help = await runCli(['catalog', ...(command ? [command] : []), '--help']);
  // A long example is continued on the next line with " \\" (help wraps at 80 columns): one line again.
  const block = (help.stdout.split('\nExamples:\n')[1] ?? '').replace(/ \\\n +/g, ' ');
  return block
    .split('\n')
    .filter((line) => line.startsWith('  $ '))
    .map((line) => line.slice(4));
}

/** Runs one example line in bash, with `trident` being the built binary, in a directory of its own. */
async function runExample(line: string): Promise<{ exitCode: number; stdout: string; stderr: string; cwd: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'trident-example-'));
  const script = `trident() { "$NODE" "$BIN" "$@"; }\n${line.replaceAll(DEFAULT_SANDBOX_CATALOG, sandbox.url)}`;
  const result = await execa('bash', ['--norc', '-c', script], {
    cwd,
    env: { ...childEnv({ env: { TRIDENT_CATALOG_URL: sandbox.url } }), NODE: process.execPath, BIN },
    extendEnv: false,
    reject: false,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr), cwd };
}

/** Output with at least one row: not empty, not an empty JSON list, not only a csv/tsv header. */
function hasData(output: string): boolean {
  const text = output.trim();
  if (text === '' || text === '[]') return false;
  // One page of a list in -o json: {"items", "meta"}; its items must not be empty.
  if (text.startsWith('{"items"') || text.startsWith('{\n  "items"')) return (JSON.parse(text) as { items: unknown[] }).items.length > 0;
  return text.startsWith('{') || text.startsWith('[') || text.split('\n').length >= 2;
}

describe('catalog help examples on the sandbox', () => {
  it('every example exits 0 and prints something', async () => {
    const examples = (await Promise.all(COMMANDS.map(helpExamples))).flat();
    expect(examples.length).toBeGreaterThan(25);
    for (const line of examples) {
      const result = await runExample(line);
      expect(result.exitCode, `${line}\n${result.stderr}`).toBe(0);
      const redirect = / > (\S+)$/.exec(line);
      const output = redirect ? readFileSync(join(result.cwd, redirect[1]!), 'utf8') : result.stdout;
      expect(hasData(output), `${line} printed nothing`).toBe(true);
      // A series of gaps only would be an empty chart: some point must have a value.
      if (line.includes(' dynamics ')) expect(output, line).toMatch(/\t\d|^ +\d/m);
    }
  });
});
