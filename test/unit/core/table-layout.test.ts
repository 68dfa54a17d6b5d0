// Lists as a person sees them at any width: a table that fits, with the columns that must stay, or one record
// per block; never a line wider than the terminal unless it is one id wider than it; never an id split.
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { byImportance, type Column } from '../../../src/core/term/output/columns.js';
import { Output } from '../../../src/core/term/output/output.js';
import { pieces } from '../../../src/core/term/wrap.js';

const UUID = '0146d6eb-a68f-4103-802e-a8ca5faad817';

async function render<T>(rows: T[], columns: Array<Column<T>>, width: number, choices: { columns?: string; header?: boolean } = {}) {
  const stream = Object.assign(new PassThrough(), { columns: width });
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  const notes: string[] = [];
  const output = new Output(stream, 'table', false);
  output.configure({ ...choices, note: (message) => notes.push(message) });
  await output.list(rows, columns);
  return { text, lines: text.trimEnd().split('\n'), notes };
}

interface Key {
  api_key: string;
  name: string;
  scopes: string;
  created: string;
  in_use: boolean;
}

const KEY_COLUMNS = byImportance<Key>(
  [
    { header: 'id', key: 'api_key', value: (k) => k.api_key },
    { header: 'name', value: (k) => k.name },
    { header: 'scopes', value: (k) => k.scopes },
    { header: 'created', value: (k) => k.created },
    { header: 'in use', key: 'in_use', value: (k) => (k.in_use ? 'yes' : undefined) },
  ],
  { keep: ['api_key', 'in_use'], drop: ['created', 'scopes', 'name'] },
);
const KEYS: Key[] = [
  { api_key: UUID, name: 'ci-reader for the nightly build', scopes: 'read,write', created: '2026-02-01T06:00:00.123Z', in_use: true },
  { api_key: '003ffeb0-e028-4bc9-9f05-14869d0d6854', name: 'desk-7', scopes: 'read', created: '2026-02-02T06:00:00.000Z', in_use: false },
];

describe('a list fitted by importance', () => {
  it('a name people read stays before "in use" at 60 columns: a long one breaks anywhere instead of going', async () => {
    const columns = byImportance<Key>(
      [
        { header: 'id', key: 'api_key', value: (k) => k.api_key },
        { header: 'name', value: (k) => k.name, breakable: true },
        { header: 'scopes', value: (k) => k.scopes },
        { header: 'in use', key: 'in_use', value: (k) => (k.in_use ? 'yes' : undefined) },
      ],
      { keep: ['api_key', 'name', 'in_use'], drop: ['scopes'] },
    );
    const long = 'rot-969ae991-rotated-20261129T035613Z';
    const narrow = await render([{ ...KEYS[0]!, name: long }], columns, 60);
    expect(narrow.lines[1]).toMatch(/^│ id +│ name +│ in use │$/);
    for (const line of narrow.lines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    const nameCells = narrow.lines.slice(3, -1).map((line) => line.split('│')[2]!.trim());
    expect(nameCells.join('')).toBe(long);
    expect(narrow.lines.find((line) => line.includes(UUID))).toMatch(/│ yes +│$/);
    expect(narrow.notes).toEqual(['scopes hidden to fit 60 columns; to choose the columns:\n  --columns api_key,name,scopes,in_use']);
  });

  it('keeps the columns that must stay and drops the others in the declared order, saying which', async () => {
    const wide = await render(KEYS, KEY_COLUMNS, 200);
    expect(wide.lines[1]).toMatch(/│ id +│ name +│ scopes +│ created +│ in use │/);
    expect(wide.notes).toEqual([]);
    const narrow = await render(KEYS, KEY_COLUMNS, 64);
    expect(narrow.lines[1]).toMatch(/^│ id +│ name +│ in use │$/);
    expect(narrow.lines.find((line) => line.includes(UUID))).toMatch(/│ yes +│$/);
    expect(narrow.notes).toEqual([
      'scopes, created hidden to fit 64 columns; to choose the\n  columns: --columns api_key,name,scopes,created,in_use',
    ]);
    for (const line of narrow.notes[0]!.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(64);
    for (const line of narrow.lines) expect(stringWidth(line)).toBeLessThanOrEqual(64);
  });

  it('prints one record per block when the columns that must stay do not fit: labels aligned, empty fields left out', async () => {
    const { text, notes } = await render(KEYS, KEY_COLUMNS, 40);
    // An id too wide to sit beside its label goes under it.
    expect(text).toBe(
      [
        'id:',
        `  ${UUID}`,
        'name:    ci-reader for the nightly build',
        'scopes:  read,write',
        'created: 2026-02-01T06:00:00.123Z',
        'in use:  yes',
        '',
        'id:',
        '  003ffeb0-e028-4bc9-9f05-14869d0d6854',
        'name:    desk-7',
        'scopes:  read',
        'created: 2026-02-02T06:00:00.000Z',
        '',
        '',
      ].join('\n'),
    );
    expect(notes).toEqual([]);
    const wider = await render(KEYS, KEY_COLUMNS, 46);
    expect(wider.lines.slice(0, 2)).toEqual([`id:      ${UUID}`, 'name:    ci-reader for the nightly build']);
  });

  it('--columns: the columns asked for all stay, as blocks when they do not fit; --no-header keeps the labels of blocks', async () => {
    const chosen = await render(KEYS, KEY_COLUMNS, 40, { columns: 'id,created' });
    expect(chosen.lines.slice(0, 3)).toEqual(['id:', `  ${UUID}`, 'created: 2026-02-01T06:00:00.123Z']);
    const plain = await render(KEYS, KEY_COLUMNS, 40, { header: false });
    expect(plain.lines[0]).toBe('id:');
    const table = await render(KEYS, KEY_COLUMNS, 60, { header: false });
    expect(table.text).not.toMatch(/│ id /);
    expect(table.text).toContain(UUID);
  });

  it('refuses a declaration that leaves a column out, so that no column is kept or dropped by accident', () => {
    expect(() => byImportance(KEY_COLUMNS, { keep: ['api_key'], drop: ['created', 'scopes', 'name'] })).toThrow(
      'column in_use is neither kept nor dropped',
    );
  });

  it('a list that declares nothing keeps its first column and drops from the last', async () => {
    const { lines, notes } = await render(
      KEYS,
      KEY_COLUMNS.map(({ keep: _keep, hide: _hide, ...column }) => column),
      70,
    );
    expect(lines[1]).toMatch(/^│ id +│ name +│ scopes +│$/);
    expect(notes[0]).toMatch(/^created, in_use hidden to fit 70 columns/);
  });

  it('at any width: every line fits unless it is one id wider than the terminal; ids whole; what must stay is there, or blocks', async () => {
    const hexId = fc.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const words = fc.array(fc.constantFrom('Крупа', 'гречневая', '漢字のタイトル', 'a', 'ядрица', '800', 'г,', 'Ritter', 'Sport'), {
      maxLength: 8,
    });
    const row = fc.record({
      id: hexId,
      title: words.map((list) => list.join(' ')),
      amount: fc.integer({ min: -1e9, max: 1e9 }).map((cents) => (cents / 100).toFixed(2)),
      ref: hexId.map((id) => `new_key=${id} file=/home/u/.config/trident/keys/${id}.pem`),
      note: words.map((list) => list.join(' ')),
    });
    type Row = { id: string; title: string; amount: string; ref: string; note: string };
    const columns = byImportance<Row>(
      (['id', 'title', 'amount', 'ref', 'note'] as const).map((name) => ({ header: name, value: (r: Row) => r[name] })),
      { keep: ['id', 'amount', 'ref'], drop: ['note', 'title'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 4 }), fc.integer({ min: 20, max: 200 }), async (rows, width) => {
        const { text, lines } = await render(rows, columns, width);
        // Wider than the terminal: only a line that is a single piece that may not split (an id, `<id>.pem`).
        for (const line of lines) if (stringWidth(line) > width) expect(pieces(line.trim())).toEqual([line.trim()]);
        for (const r of rows) {
          expect(lines.some((line) => line.includes(r.id))).toBe(true);
          expect(lines.some((line) => line.includes(`${r.ref.slice(8, 44)}.pem`))).toBe(true);
          expect(lines.some((line) => line.includes(r.ref.slice(8, 44)))).toBe(true);
        }
        if (text.startsWith('┌')) {
          expect(lines[1]).toMatch(/^│ id +│(.* │)? amount +│ ref +│/);
          for (const r of rows) expect(text).toMatch(new RegExp(`│ +${r.amount.replace('.', '\\.')} +│`));
        } else {
          expect(text.trimEnd().split('\n\n')).toHaveLength(rows.length);
          for (const r of rows) expect(text).toMatch(new RegExp(`^amount: +${r.amount.replace('.', '\\.')}$`, 'm'));
        }
      }),
      { numRuns: 100 },
    );
  });
});
