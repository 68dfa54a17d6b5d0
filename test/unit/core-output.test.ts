import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { Output, cellText, chooseFormat, tsvField, useColor, type Format } from '../../src/core/output.js';

function capture(format: Format, color = false) {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { output: new Output(stream, format, color), text: () => text };
}

const rows = [
  { id: 1, name: 'plain', tags: ['a', 'b'], note: null },
  { id: 2, name: 'comma, "quote"\nnewline', tags: [], note: 'tab\there' },
];
const columns = [
  { header: 'ID', value: (r: (typeof rows)[number]) => r.id },
  { header: 'Name', value: (r: (typeof rows)[number]) => r.name },
];

describe('Output', () => {
  it('csv quotes commas, quotes and newlines and round-trips with every field', async () => {
    const { output, text } = capture('csv');
    expect(await output.list(rows, columns)).toBe(2);
    const parsed = parse(text(), { columns: true }) as Array<Record<string, string>>;
    expect(parsed).toEqual([
      { id: '1', name: 'plain', tags: 'a,b', note: '' },
      { id: '2', name: 'comma, "quote"\nnewline', tags: '', note: 'tab\there' },
    ]);
  });

  it('tsv escapes tabs and newlines so every record is one line', async () => {
    const { output, text } = capture('tsv');
    await output.list(rows, columns);
    const lines = text().trimEnd().split('\n');
    expect(lines).toEqual(['id\tname\ttags\tnote', '1\tplain\ta,b\t', '2\tcomma, "quote"\\nnewline\t\ttab\\there']);
  });

  it('ndjson writes one object per line, json one array', async () => {
    const nd = capture('ndjson');
    await nd.output.list(rows, columns);
    expect(nd.text().trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(rows);
    const js = capture('json');
    await js.output.list(rows, columns);
    expect(JSON.parse(js.text())).toEqual(rows);
    const empty = capture('json');
    await empty.output.list([], columns);
    expect(JSON.parse(empty.text())).toEqual([]);
  });

  it('prints the rows it has as soon as an async source waits for more', async () => {
    const { output, text } = capture('ndjson');
    const seen: string[] = [];
    async function* source() {
      yield { n: 1 };
      await new Promise((resolve) => setTimeout(resolve, 5)); // the next page is on its way
      seen.push(text());
      yield { n: 2 };
    }
    await output.list(source(), [{ header: 'n', value: (r: { n: number }) => r.n }]);
    expect(seen).toEqual(['{"n":1}\n']);
    expect(text()).toBe('{"n":1}\n{"n":2}\n');
  });

  it('writes the rows that arrive together in one write, and still those before a failure', async () => {
    const writes: string[] = [];
    const sink = { write: (chunk: string) => (writes.push(chunk), true), once: () => undefined };
    const output = new Output(sink, 'ndjson', false);
    async function* page() {
      for (let n = 1; n <= 100; n += 1) yield { n };
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('connection reset');
    }
    await expect(output.list(page(), [])).rejects.toThrow('connection reset');
    expect(writes).toHaveLength(1);
    expect(writes[0]!.split('\n')).toHaveLength(101);
  });

  it('waits for a slow sink to drain between batches', async () => {
    const sink = new PassThrough({ highWaterMark: 1024 });
    const output = new Output(sink, 'ndjson', false);
    const rows = Array.from({ length: 5000 }, (_, n) => ({ n, padding: 'x'.repeat(50) }));
    let finished = false;
    const listing = output.list(rows, []).then(() => (finished = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(false); // nobody reads: it is waiting for 'drain'
    const read = (async () => {
      let text = '';
      for await (const chunk of sink) text += chunk;
      return text;
    })();
    await listing;
    sink.end();
    expect((await read).trimEnd().split('\n')).toHaveLength(5000);
  });

  it('table shows the chosen columns, without ANSI codes when colour is off', async () => {
    const { output, text } = capture('table', false);
    await output.list(rows, columns);
    expect(text()).toContain('ID');
    expect(text()).toContain('plain');
    expect(text()).not.toContain('tags');
    expect(text()).not.toMatch(/\u001b\[/);
    const coloured = capture('table', true);
    await coloured.output.list(rows, columns);
    expect(coloured.text()).toMatch(/\u001b\[/);
  });

  it('fits a list table to the terminal: one line per row, the first column whole, the others cut with …', async () => {
    const stream = Object.assign(new PassThrough(), { columns: 60 });
    let text = '';
    stream.on('data', (chunk) => (text += chunk));
    const rows = [
      { id: '0146d6eb-a68f-4103-802e-a8ca5faad817', title: 'Крупа гречневая ядрица 800 г, отборная, в пакетах для варки', brand: 'Мистраль' },
      { id: '003ffeb0-e028-4bc9-9f05-14869d0d6854', title: '漢字のタイトル、とても長い商品名です', brand: 'Ritter Sport' },
    ];
    await new Output(stream, 'table', false).list(rows, [
      { header: 'id', value: (r) => r.id },
      { header: 'title', value: (r) => r.title },
      { header: 'brand', value: (r) => r.brand },
    ]);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(6); // top, header, rule, two rows, bottom
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    expect(lines[3]).toContain('0146d6eb-a68f-4103-802e-a8ca5faad817');
    expect(lines[3]).toContain('…');
    expect(lines[2]).toMatch(/^├─+┼─+┼─+┤$/);
  });

  it('wraps a record table to the terminal instead of cutting its values', async () => {
    const stream = Object.assign(new PassThrough(), { columns: 50 });
    let text = '';
    stream.on('data', (chunk) => (text += chunk));
    const file = '/home/ci/.config/trident/keys/0146d6eb-a68f-4103-802e-a8ca5faad817.pem';
    await new Output(stream, 'table', true).object({ title: 'Крупа гречневая ядрица 800 г, отборная, в пакетах для варки', price: 91.98, private_key_file: file });
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(50);
    const plain = text.replace(/\u001b\[\d+m/g, '');
    for (const word of ['Крупа', 'гречневая', 'отборная,', 'варки', '91.98']) expect(plain).toContain(word);
    expect(plain).not.toContain('…');
    // The path is split over lines, not cut: its pieces, in order, give it back.
    const valueLines = plain.split('\n').map((line) => line.split('│')[2]?.trim() ?? '');
    expect(valueLines.join('')).toContain(file);
    expect(text).toContain('\u001b[1mtitle\u001b[22m');
  });

  it('leaves a table alone when not on a terminal (no width known)', async () => {
    const { output, text } = capture('table');
    const long = 'x'.repeat(300);
    await output.list([{ long }], [{ header: 'long', value: (r) => r.long }]);
    expect(text()).toContain(long);
  });

  it('prints nothing for an empty table', async () => {
    const { output, text } = capture('table');
    expect(await output.list([], columns)).toBe(0);
    expect(text()).toBe('');
  });

  it('prints single objects in every format', async () => {
    const record = { api_key: 'k', scopes: ['read'] };
    const js = capture('json');
    await js.output.object(record);
    expect(JSON.parse(js.text())).toEqual(record);
    const csv = capture('csv');
    await csv.output.object(record);
    expect(csv.text()).toBe('api_key,scopes\nk,read\n');
    const table = capture('table');
    await table.output.object(record);
    expect(table.text()).toMatch(/api_key.*k/);
  });
});

describe('format and colour choice', () => {
  it('defaults to table on a TTY and tsv when piped', () => {
    expect(chooseFormat(undefined, true)).toBe('table');
    expect(chooseFormat(undefined, false)).toBe('tsv');
    expect(chooseFormat('json', true)).toBe('json');
    expect(() => chooseFormat('xml', true)).toThrow(/invalid output format/);
  });

  it('follows --no-color, NO_COLOR and FORCE_COLOR', () => {
    expect(useColor(undefined, {}, true)).toBe(true);
    expect(useColor(undefined, {}, false)).toBe(false);
    expect(useColor(false, { FORCE_COLOR: '1' }, true)).toBe(false);
    expect(useColor(undefined, { NO_COLOR: '1' }, true)).toBe(false);
    expect(useColor(undefined, { FORCE_COLOR: '1' }, false)).toBe(true);
    expect(useColor(undefined, { FORCE_COLOR: '0' }, true)).toBe(false);
  });

  it('renders cells: null empty, lists joined, objects as JSON', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(['read', 'write'])).toBe('read,write');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(tsvField('a\\b')).toBe('a\\\\b');
  });
});
