// The lists people read most, on real pseudo-terminals 40, 80, 120 and 200 columns wide, against the sandboxes:
// what must stay (ids, the key in use, totals and amounts) is on the screen at every width and whole; no line
// is wider than the terminal unless it is one id wider than it; where even that does not fit a table, one
// record per block; and the "hidden to fit" note names exactly the columns missing from the table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import type { KeysSandbox } from '../../src/sandbox/keys/server.js';
import { seedCatalogDb } from '../../src/sandbox/catalog/seed/seed-catalog.js';
import { runCli, type CliOptions } from '../helpers/cli.js';
import { startSandbox as startCatalog } from '../helpers/catalog-fixtures.js';
import { addKey, sandboxEnv, startSandbox as startKeys } from '../helpers/keys-sandbox.js';
import { keysOfTest, profileKey, profileWithKey } from '../helpers/keys-rotation.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { inTerminal } from '../helpers/terminal.js';
import { wrapCell } from '../../src/core/term/wrap.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();
let keys: KeysSandbox;
let catalog: CatalogSandbox;
let catalogEnv: Record<string, string>;
const WEEK = ['--from', '2026-11-02', '--to', '2026-11-06'];

beforeAll(async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'trident-table-widths-')), 'catalog.db');
  seedCatalogDb(db, { products: 20 });
  [keys, catalog] = await Promise.all([startKeys(), startCatalog(db)]);
  catalogEnv = { TRIDENT_CATALOG_URL: catalog.url };
  // A name as long as an id: it stays beside the id and "in use", breaking where it must.
  addKey(keys, 'payments-exchange-production-reader');
});
afterAll(async () => {
  await Promise.all([keys?.close(), catalog?.close()]);
});

interface Screen {
  exitCode: number;
  text: string;
  lines: string[];
  /** The table's header labels; undefined when the list came as blocks. */
  header: string[] | undefined;
}

/** What a person sees on a terminal `columns` wide: the screen without colour, stdout and stderr together. */
async function onScreen(args: string[], options: CliOptions, columns: number): Promise<Screen> {
  const run = inTerminal(args, options, { columns });
  const exitCode = await run.exitCode();
  const text = run.plain();
  const lines = text.trimEnd().split('\n');
  const head = lines.find((line) => line.startsWith('│'));
  return {
    exitCode,
    text,
    lines,
    header: head
      ?.split('│')
      .slice(1, -1)
      .map((label) => label.trim()),
  };
}

/** JSON of the same command, from a pipe: what the screen must show. */
async function truth<T>(args: string[], options: CliOptions): Promise<T> {
  const result = await runCli([...args, '-o', 'json'], options);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** The one-line page hint on stderr after a list: prose the terminal may wrap. */
const MESSAGE = /^products \d+–\d+ of \d+; /;

/** No line of the list wider than the terminal unless it is one id (a piece that may not split) wider than it. */
function expectFits(screen: Screen, columns: number, ids: readonly string[]): void {
  for (const line of screen.lines.filter((l) => !MESSAGE.test(l)))
    if (stringWidth(line) > columns) expect(ids, line).toContain(line.trim());
  expect(screen.text).not.toContain('…');
}

/**
 * A table's header and its note agree: the note names exactly the columns missing from the header, and with
 * none missing there is no note. The note is wrapped to the terminal, its continuation lines indented. `labels`
 * maps each field (in --columns order) to the table's label.
 */
function expectNoteAgrees(screen: Screen, columns: number, labels: Record<string, string>): void {
  const shown = Object.entries(labels).filter(([, label]) => screen.header!.includes(label));
  expect(screen.header).toEqual(shown.map(([, label]) => label));
  const missing = Object.keys(labels).filter((field) => !shown.some(([shownField]) => shownField === field));
  if (missing.length === 0) {
    expect(screen.text).not.toContain('hidden to fit');
    return;
  }
  const note = `${missing.join(', ')} hidden to fit ${columns} columns; to choose the columns: --columns ${Object.keys(labels).join(',')}`;
  expect(screen.text).toContain(`${wrapCell(note, columns - 2).replaceAll('\n', '\n  ')}\n`);
}

/** The row of a table (its first line) or the block that holds `marker`; fails when there is none. */
function recordWith(screen: Screen, marker: RegExp): string {
  const found = screen.header
    ? screen.lines.find((line) => marker.test(line))
    : screen.text.split('\n\n').find((block) => marker.test(block));
  expect(found, `nothing on the screen matches ${marker}:\n${screen.text}`).toBeDefined();
  return found!;
}

/** A value of a record: its cell in a table row, or its "label: value" line in a block. */
const cell = (screen: Screen, label: string, value: string) =>
  screen.header ? new RegExp(`│ +${escape(value)} +│`) : new RegExp(`^${escape(label)}: +${escape(value)}$`, 'm');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const KEY_LABELS = {
  api_key: 'id',
  given_name: 'name',
  // The keys of this sandbox include some trident made, whose names carry its tag.
  tag: 'tag',
  scopes: 'scopes',
  subaccount: 'subaccount',
  created_ts: 'created',
  age_seconds: 'age',
  in_use: 'in use',
};
const REPORT_LABELS = {
  date: 'date',
  project: 'project',
  user: 'user',
  description: 'description',
  time_start: 'start',
  time_end: 'end',
  time_total: 'time',
  rate_total: 'amount',
};
const PROJECT_LABELS = {
  id: 'id',
  name: 'name',
  customer_name: 'customer',
  status: 'status',
  billable: 'billable',
  time_total: 'time total',
};
const PRODUCT_LABELS = {
  canonical_product_id: 'id',
  title: 'title',
  brand: 'brand',
  price_from: 'price from',
  price_unit: 'unit',
  parsers: 'stores',
  sources_count: 'sources',
  observed_at_latest: 'observed',
};

describeWithTools(['script'], 'tables fit by importance', () => {
  it('keys list at 60 columns: the name people read stays before "in use", a long one wrapped; the rest named in the note', async () => {
    const env = sandboxEnv(keys);
    const screen = await onScreen(['keys', 'list'], { env }, 60);
    expect(screen.exitCode, screen.text).toBe(0);
    expect(screen.header).toEqual(['id', 'name', 'in use']);
    expectFits(screen, 60, []);
    const names = screen.lines.filter((line) => line.startsWith('│')).map((line) => line.split('│')[2]!.trim());
    expect(names.join('')).toContain('payments-exchange-production-reader');
    // The tag column is there only once a key trident made (its name tagged) is on the service.
    const listed = await truth<Array<{ name: string; given_name: string }>>(['keys', 'list'], { env });
    const { tag: _tag, ...untagged } = KEY_LABELS;
    expectNoteAgrees(screen, 60, listed.some((key) => key.name !== key.given_name) ? KEY_LABELS : untagged);
  });

  describe.each([40, 80, 120, 200])('at %i columns', (columns) => {
    const blocks = columns === 40;

    it('keys list: every id whole and the key in use marked; blocks at 40', async () => {
      const env = sandboxEnv(keys);
      const listed = await truth<Array<{ api_key: string; in_use: boolean }>>(['keys', 'list'], { env });
      const screen = await onScreen(['keys', 'list'], { env }, columns);
      expect(screen.exitCode, screen.text).toBe(0);
      expect(screen.header === undefined, screen.text).toBe(blocks);
      expectFits(screen, columns, []);
      for (const key of listed) {
        const record = recordWith(screen, new RegExp(key.api_key));
        if (key.in_use) expect(record).toMatch(screen.header ? /│ yes +│$/ : /^in use: +yes$/m);
        else expect(record).not.toMatch(/yes/);
      }
      if (screen.header) expectNoteAgrees(screen, columns, KEY_LABELS);
    });

    it('time report: every subtotal and the total with its time and amount; blocks at 40', async () => {
      const env = time.tokenEnv();
      const report = await truth<{
        totals: {
          groups: Array<{ records: number; time_total: string; rate_total: string | null }>;
          overall: { records: number; time_total: string; rate_total: string };
        };
      }>(['time', 'report', ...WEEK], { env });
      const screen = await onScreen(['time', 'report', ...WEEK], { env }, columns);
      expect(screen.exitCode, screen.text).toBe(0);
      expect(screen.header === undefined).toBe(blocks);
      expectFits(screen, columns, []);
      const { groups, overall } = report.totals;
      for (const [kind, total] of [...groups.map((group) => ['subtotal', group] as const), ['total', overall] as const]) {
        const record = recordWith(screen, new RegExp(`${kind} \\(${total.records}( |$)`, 'm'));
        expect(record).toMatch(cell(screen, 'time', total.time_total));
        if (total.rate_total !== null) expect(record).toMatch(cell(screen, 'amount', total.rate_total));
      }
      if (screen.header) expectNoteAgrees(screen, columns, REPORT_LABELS);
    });

    it('time projects: every id with its time total', async () => {
      const env = time.tokenEnv();
      const projects = await truth<Array<{ id: number; time_total: string }>>(['time', 'projects'], { env });
      const screen = await onScreen(['time', 'projects'], { env }, columns);
      expect(screen.exitCode, screen.text).toBe(0);
      expectFits(screen, columns, []);
      for (const project of projects) {
        const record = recordWith(screen, screen.header ? new RegExp(`^│ ${project.id} +│`) : new RegExp(`^id: +${project.id}$`, 'm'));
        expect(record).toMatch(cell(screen, 'time total', project.time_total));
      }
      if (screen.header) expectNoteAgrees(screen, columns, PROJECT_LABELS);
    });

    it('catalog products --limit 2: ids whole with their prices; blocks at 40', async () => {
      const page = await truth<{ items: Array<{ canonical_product_id: string; price_from: number }> }>(
        ['catalog', 'products', '--limit', '2'],
        {
          env: catalogEnv,
        },
      );
      const screen = await onScreen(['catalog', 'products', '--limit', '2'], { env: catalogEnv }, columns);
      expect(screen.exitCode, screen.text).toBe(0);
      expect(screen.header === undefined).toBe(blocks);
      const ids = page.items.map((item) => item.canonical_product_id);
      expectFits(screen, columns, ids);
      for (const item of page.items) {
        const record = recordWith(screen, new RegExp(item.canonical_product_id));
        expect(record).toMatch(cell(screen, 'price from', String(item.price_from)));
      }
      if (screen.header) expectNoteAgrees(screen, columns, PRODUCT_LABELS);
    });

    it('keys rotate: the report gives the old and the new key whole; blocks at 40', async () => {
      const setup = profileWithKey(keys);
      const screen = await onScreen(
        ['--profile', setup.profile, '--quiet', 'keys', 'rotate', '--yes'],
        { configDir: setup.configDir },
        columns,
      );
      expect(screen.exitCode, screen.text).toBe(0);
      const newId = profileKey(setup).keyId;
      expect(keysOfTest(keys, setup).map((key) => key.api_key)).toEqual([newId]);
      expect(screen.header === undefined).toBe(blocks);
      expectFits(screen, columns, [setup.oldId, newId]);
      expect(screen.text).toMatch(
        screen.header ? new RegExp(`│ old key +│ ${setup.oldId} +│`) : new RegExp(`^old key:\\s+${setup.oldId}$`, 'm'),
      );
      expect(screen.text).toMatch(screen.header ? new RegExp(`│ new key +│ ${newId} +│`) : new RegExp(`^new key:\\s+${newId}$`, 'm'));
      // As blocks, the summary is set apart from the last step's block, not read as more of its fields.
      if (!screen.header) expect(screen.text).toMatch(/\n\noutcome: +rotated\n/);
      // The details of the steps (ids, the new key's file) are whole on their lines too.
      expect(screen.lines.some((line) => line.includes(`${newId}.pem`))).toBe(true);
      for (const step of ['preflight', 'mint', 'store', 'switch', 'verify', 'delete-old'])
        expect(screen.text).toMatch(new RegExp(`(│ |^step: +)${step}( |$)`, 'm'));
    });
  });
});
