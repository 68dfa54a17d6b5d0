// Catalog output as a person sees it, on a real pseudo-terminal of 80 and 200 columns: tables that fit
// without cutting a number or an id, charts within the width, no bold on TERM=dumb, and a catalog whose
// data is hostile (escape sequences, bidi overrides, newlines) that cannot reach the terminal raw.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { wrapCell } from '../../src/core/term/wrap.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import { runCli } from '../helpers/cli.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { inTerminal, type Screen } from '../helpers/terminal.js';
import { SANDBOX_PRODUCT } from '../../src/catalog/examples.js';
import { seedCatalogDb } from '../../src/sandbox/catalog/seed/seed-catalog.js';
import { openSqlite } from '../../src/sandbox/catalog/sqlite/open.js';
import { PROD_1, seededCatalog, smallCatalog, startSandbox } from '../helpers/catalog-fixtures.js';

const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const TITLE = '\u001b]0;owned\u0007\u001b[2J';
const EVIL_TITLE = `Milk ${OSC52}prod-\u202eredaer\u200b\nfake │ row`;
const EVIL_UNIT = `RUB${OSC52}\u009b2J`;
/** What must never reach the screen: OSC, a screen clear, BEL, C1 controls, bidi overrides, zero-width. */
const RAW = /\u001b\]|\u001b\[2J|\u0007|[\u0080-\u009f]|[\u202a-\u202e\u2066-\u2069]|[\u200b-\u200f]/;

let seeded: CatalogSandbox;
let hostile: CatalogSandbox;

/** The small catalog with service text an attacker chose: titles, brands, price units. */
function hostileCatalog(): string {
  const file = smallCatalog();
  const db = openSqlite(file);
  db.prepare('UPDATE catalog_products SET title_original = ?, brand = ?, price_unit = ? WHERE id = 1').run(EVIL_TITLE, TITLE, EVIL_UNIT);
  db.prepare('UPDATE catalog_product_snapshots SET price_unit = ?').run(EVIL_UNIT);
  db.close();
  return file;
}

/** Seeded as `trident sandbox` seeds its catalog: the product of the help examples is in it. */
function sandboxCatalog(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'trident-catalog-terminal-')), 'catalog.db');
  seedCatalogDb(file, { products: 50 });
  return file;
}

beforeAll(async () => {
  [seeded, hostile] = await Promise.all([startSandbox(sandboxCatalog()), startSandbox(hostileCatalog())]);
});
afterAll(async () => {
  await Promise.all([seeded.close(), hostile.close()]);
});

async function onScreen(args: string[], url: string, screen: Screen): Promise<{ exitCode: number; lines: string[]; text: string }> {
  const run = inTerminal(['catalog', ...args], { env: { TRIDENT_CATALOG_URL: url } }, screen);
  const exitCode = await run.exitCode();
  const text = run.screen().replace(/\r\n/g, '\n');
  return {
    exitCode,
    text,
    lines: run.plain().trimEnd().split('\n'),
  };
}

describeWithTools(['script'], 'tables on a terminal', () => {
  it('at 80 columns: every line fits, prices and ids are whole, and the hidden columns are named', async () => {
    const rows = JSON.parse(
      (await runCli(['catalog', 'products', '--limit', '8', '-o', 'json'], { env: { TRIDENT_CATALOG_URL: seeded.url } })).stdout,
    ).items as Array<{ canonical_product_id: string; price_from: number | null }>;
    const { exitCode, lines, text } = await onScreen(['products', '--limit', '8'], seeded.url, { columns: 80 });
    expect(exitCode).toBe(0);
    const table = lines.filter((line) => /^[│┌├└]/.test(line));
    for (const line of table) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
    expect(text).not.toContain('…');
    for (const row of rows) {
      expect(text).toContain(row.canonical_product_id);
      if (row.price_from !== null) expect(text).toMatch(new RegExp(`│ +${String(row.price_from).replace('.', '\\.')} +│`));
    }
    // The note wrapped to the terminal, its continuation indented.
    const note =
      'brand, price_unit, parsers, sources_count, observed_at_latest hidden to fit 80 columns; to choose the columns: --columns canonical_product_id,title,brand,price_from,price_unit,parsers,sources_count,observed_at_latest';
    expect(text).toContain(`${wrapCell(note, 78).replaceAll('\n', '\n  ')}\n┌`);
    for (const line of text.split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(80);
  });

  it('at 200 columns: every column is shown and nothing is said', async () => {
    const { exitCode, lines, text } = await onScreen(['products', '--limit', '8'], seeded.url, { columns: 200 });
    expect(exitCode).toBe(0);
    expect(lines.find((line) => line.startsWith('│ id'))).toMatch(
      /│ id +│ title +│ brand +│ price from +│ unit +│ stores +│ sources +│ observed +│/,
    );
    expect(text).not.toContain('hidden to fit');
  });

  it('sources at 80 columns keep the prices whole', async () => {
    const { lines, text } = await onScreen(['sources', SANDBOX_PRODUCT], seeded.url, { columns: 80 });
    for (const line of lines.filter((l) => /^[│┌├└]/.test(l))) expect(stringWidth(line)).toBeLessThanOrEqual(80);
    expect(text).not.toMatch(/\d…/);
  });

  it('bold on a capable terminal, none on TERM=dumb', async () => {
    const xterm = await onScreen(['products', '--limit', '2'], seeded.url, { columns: 200 });
    expect(xterm.text).toContain('\u001b[1mid\u001b[22m');
    const dumb = await onScreen(['products', '--limit', '2'], seeded.url, { columns: 200, term: 'dumb' });
    expect(dumb.exitCode).toBe(0);
    expect(dumb.text).toContain('price from');
    expect(dumb.text).not.toContain('\u001b');
  });
});

describeWithTools(['script'], 'charts on a terminal', () => {
  it.each([40, 80, 120, 200])('a dynamics chart fits %i columns, with dated marks along its time axis', async (columns) => {
    const { exitCode, lines } = await onScreen(
      [
        'dynamics',
        SANDBOX_PRODUCT,
        '--store',
        'perekrestok',
        '--source-id',
        '100005',
        '--field',
        'price',
        '--interval',
        '1h',
        '--from',
        '-30d',
        '--chart',
      ],
      seeded.url,
      { columns },
    );
    expect(exitCode).toBe(0);
    const title = lines
      .slice(
        0,
        lines.findIndex((line) => /[┤┼]/.test(line)),
      )
      .join(' ');
    expect(title).toMatch(/^price \(.+\) every 1h, perekrestok 100005, each column the mean of up to \d+ points$/);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(columns);
    const axis = lines.findIndex((line) => /^ +└[┬─]+$/.test(line));
    const dates = lines[axis + 1]!.trim().split(/ {2,}| → /);
    expect(dates.length).toBeGreaterThanOrEqual(2);
    for (const date of dates) expect(date).toMatch(/^\d{2}-\d{2} \d{2}:\d{2}Z$/);
    expect([...dates].sort()).toEqual(dates);
  });
});

describeWithTools(['script'], 'hostile catalog data never reaches the terminal raw', () => {
  it('tables show escapes, and a newline in a title draws no row of its own', async () => {
    const list = await onScreen(['products'], hostile.url, { columns: 400 });
    expect(list.exitCode).toBe(0);
    expect(list.text).not.toMatch(RAW);
    expect(list.text).toContain('prod-\\u202eredaer\\u200b\\nfake │ row');
    expect(list.text).toContain('\\x1b]52;c;ZWNobyBwd25lZA==\\x07');
    expect(list.lines.filter((line) => line.startsWith('│ '))).toHaveLength(3); // the header and the two products
    const record = await onScreen(['product', PROD_1], hostile.url, { columns: 80 });
    expect(record.text).not.toMatch(RAW);
    const sources = await onScreen(['sources', PROD_1], hostile.url, { columns: 80 });
    expect(sources.text).not.toMatch(RAW);
  });

  it('the chart shows the price unit escaped', async () => {
    const chart = await onScreen(
      [
        'dynamics',
        PROD_1,
        '--store',
        'fixprice',
        '--source-id',
        'fp-1',
        '--field',
        'price',
        '--interval',
        '1d',
        '--from',
        '2026-02-01',
        '--to',
        '2026-02-03T23:59:59Z',
        '--chart',
      ],
      hostile.url,
      { columns: 80 },
    );
    expect(chart.exitCode).toBe(0);
    expect(chart.text).not.toMatch(RAW);
    expect(chart.lines[0]).toBe('price (RUB\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x9b2J) every 1d, fixprice fp-1');
  });

  it('csv and tsv (what a pipe gets) escape the control characters', async () => {
    for (const format of ['csv', 'tsv']) {
      const result = await runCli(['catalog', 'products', '-o', format], { env: { TRIDENT_CATALOG_URL: hostile.url } });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(result.stdout).toContain('\\e]52;c;ZWNobyBwd25lZA==\\x07');
    }
  });
});

describeWithTools(['script'], 'progress of --all on a terminal', () => {
  it('`--all | head -3`: the progress line is cleared when the reader goes away, not left under the prompt', async () => {
    const big = await startSandbox(seededCatalog(1000));
    try {
      // stderr is the terminal, stdout a pipe to head: the progress line shows, then head leaves after 3 rows.
      const run = inTerminal(
        ['catalog', 'products', '--all', '-o', 'ndjson'],
        { env: { TRIDENT_CATALOG_URL: big.url } },
        { pipeTo: 'head -3' },
      );
      await run.exitCode();
      const screen = run.screen();
      expect(screen.match(/"canonical_product_id"/g)).toHaveLength(3);
      const shown = screen.lastIndexOf('products: ');
      expect(shown, screen).toBeGreaterThanOrEqual(0);
      expect(screen.slice(shown)).toContain('\r\u001b[2K');
    } finally {
      await big.close();
    }
  });
});
