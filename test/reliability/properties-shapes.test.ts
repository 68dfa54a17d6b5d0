// Properties of what the services' answers become: keys in trident's ApiKey shape whatever shape they came in,
// projects in one shape however loosely the tracker spelled them, and the output formats, which must carry any
// string (Unicode, quotes, line breaks, control characters) and read back the same.
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { cellText } from '../../src/core/term/output/cells.js';
import type { Format } from '../../src/core/term/output/format.js';
import { Output } from '../../src/core/term/output/output.js';
import { escapeDataControls, oneLine } from '../../src/core/term/printable.js';
import { toApiKey, type ApiKey, type NewKey } from '../../src/keys/client.js';
import { normalizeProject } from '../../src/time/normalize.js';
import { untagged } from '../../src/keys/mint/tag.js';

/** As it would come off the wire: JSON text parsed (own "__proto__" keys and all). */
const wire = <T>(value: T): Record<string, unknown> => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const id = fc.string({ minLength: 1, maxLength: 36 });
const scopes = fc.subarray(['read', 'write']);
const subaccount = fc.integer({ min: 0, max: 63 });
const fcmId = fc.stringMatching(/^[a-z0-9]{1,8}_[a-z0-9]{1,8}$/);

describe('keys in any shape (keys/client.ts toApiKey)', () => {
  it('returns a key already in the ApiKey shape (api_key, created_ts, subaccount) exactly as it came', () => {
    const fullKey = fc.record(
      {
        api_key: id,
        name: anyText,
        scopes,
        created_ts: fc.oneof(
          fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('2100-01-01') }).map((d) => d.toISOString()),
          fc.nat(),
        ),
        subaccount: fc.option(subaccount, { nil: null }),
        fcm_subtrader_id: fcmId,
      },
      { requiredKeys: ['api_key', 'name', 'scopes', 'created_ts', 'subaccount'] },
    );
    fc.assert(
      fc.property(fullKey, (key) => {
        expect(toApiKey(wire(key))).toEqual({ ...key, given_name: untagged(key.name) });
      }),
      { numRuns: 1000 },
    );
  });

  it("maps the public service's shape (api_key_id, no created_ts, subaccount left out) onto the ApiKey shape", () => {
    const publicKey = fc.record(
      { api_key_id: id, name: anyText, scopes, subaccount, fcm_subtrader_id: fcmId },
      { requiredKeys: ['api_key_id', 'name', 'scopes'] },
    );
    fc.assert(
      fc.property(publicKey, (key) => {
        const expected: ApiKey = {
          api_key: key.api_key_id,
          name: key.name,
          given_name: untagged(key.name),
          scopes: key.scopes,
          created_ts: null,
          subaccount: key.subaccount ?? null,
        };
        if (key.fcm_subtrader_id !== undefined) expected.fcm_subtrader_id = key.fcm_subtrader_id;
        expect(toApiKey(wire(key))).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('fills what a flat create answer leaves out from what was asked for', () => {
    const requested = fc.record({ name: anyText, scopes, subaccount, fcmSubtraderId: fcmId }, { requiredKeys: ['name'] });
    fc.assert(
      fc.property(id, requested, (keyId, asked: NewKey) => {
        const key = toApiKey(wire({ api_key_id: keyId }), asked);
        expect(key).toMatchObject({
          api_key: keyId,
          name: asked.name,
          scopes: asked.scopes ?? ['read', 'write'],
          created_ts: null,
          subaccount: asked.subaccount ?? null,
        });
        expect(key.fcm_subtrader_id).toBe(asked.fcmSubtraderId);
      }),
      { numRuns: 500 },
    );
  });

  it('given any JSON object, returns a well-typed key or says there is no id', () => {
    const field = fc.constantFrom(
      'api_key',
      'api_key_id',
      'name',
      'scopes',
      'created_ts',
      'subaccount',
      'fcm_subtrader_id',
      '__proto__',
      'constructor',
    );
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(field, fc.string()), fc.jsonValue()), (raw) => {
        let key: ApiKey;
        try {
          key = toApiKey(wire(raw));
        } catch (error) {
          expect(error).toEqual(new TypeError('no key id'));
          return;
        }
        expect(typeof key.api_key === 'string' && key.api_key !== '').toBe(true);
        expect(typeof key.name).toBe('string');
        expect(key.scopes.every((scope) => typeof scope === 'string')).toBe(true);
        expect(key.subaccount === null || typeof key.subaccount === 'number').toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('projects however loosely spelled (time/normalize.ts)', () => {
  const BOOLEANS = ['active', 'billable', 'required_task', 'template'] as const;
  const spellings = (value: boolean) => (value ? [true, 1, '1', 'true'] : [false, 0, '0', 'false']);
  const when = fc
    .date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2099-12-31') })
    .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000));
  const offsetMinutes = fc
    .integer({ min: -12, max: 14 })
    .chain((h) => fc.constantFrom(0, 30, 45).map((m) => (h < 0 ? h * 60 - m : h * 60 + m)));
  const canonical = fc.record({
    id: fc.integer({ min: 1, max: 1e9 }),
    name: anyText,
    customer_id: fc.option(fc.integer({ min: 1, max: 1e6 }), { nil: null }),
    active: fc.boolean(),
    billable: fc.boolean(),
    required_task: fc.boolean(),
    template: fc.boolean(),
    rate: fc.option(
      fc.integer({ min: 0, max: 100_000 }).map((cents) => cents / 100),
      { nil: null },
    ),
    date_created: when,
    date_updated: fc.option(when, { nil: null }),
    offset: offsetMinutes,
  });

  /** `2019-02-14T02:59:42-0200` (or with a colon, or a space for the T): how the tracker writes a time. */
  function looseTime(time: Date, offset: number, colon: boolean, space: boolean): string {
    const local = new Date(time.getTime() + offset * 60_000)
      .toISOString()
      .slice(0, 19)
      .replace('T', space ? ' ' : 'T');
    const sign = offset < 0 ? '-' : '+';
    const hh = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
    const mm = String(Math.abs(offset) % 60).padStart(2, '0');
    return `${local}${sign}${hh}${colon ? ':' : ''}${mm}`;
  }

  const loose = canonical.chain((p) =>
    fc
      .record({
        booleans: fc.tuple(...BOOLEANS.map((field) => fc.constantFrom(...spellings(p[field])))),
        idAsText: fc.boolean(),
        rateAsText: fc.boolean(),
        colon: fc.boolean(),
        space: fc.boolean(),
        changedName: fc.boolean(),
        withStatus: fc.boolean(),
      })
      .map((s) => {
        const raw: Record<string, unknown> = {
          id: s.idAsText ? String(p.id) : p.id,
          name: p.name,
          customer_id: p.customer_id,
          rate: p.rate !== null && s.rateAsText ? String(p.rate) : p.rate,
          date_created: looseTime(p.date_created, p.offset, s.colon, s.space),
          [s.changedName ? 'date_changed' : 'date_updated']: p.date_updated && looseTime(p.date_updated, p.offset, s.colon, s.space),
        };
        BOOLEANS.forEach((field, index) => (raw[field] = s.booleans[index]));
        if (s.withStatus) raw.status = p.active ? 'active' : 'archived';
        return { p, raw };
      }),
  );

  it('reads 0/1, "0"/"1" and "true"/"false" as booleans, numbers in text as numbers, offsets without a colon as the same instant', () => {
    fc.assert(
      fc.property(loose, ({ p, raw }) => {
        const project = normalizeProject(wire(raw));
        for (const field of BOOLEANS) expect(project[field]).toBe(p[field]);
        expect(project).toMatchObject({
          id: p.id,
          name: p.name,
          customer_id: p.customer_id,
          rate: p.rate,
          status: p.active ? 'active' : 'archived',
        });
        expect(Date.parse(project.date_created!)).toBe(p.date_created.getTime());
        expect(project.date_updated === null ? null : Date.parse(project.date_updated)).toBe(p.date_updated?.getTime() ?? null);
        expect(project).not.toHaveProperty('date_changed');
      }),
      { numRuns: 1000 },
    );
  });

  it('normalizing twice changes nothing', () => {
    fc.assert(
      fc.property(loose, ({ raw }) => {
        const once = normalizeProject(wire(raw));
        expect(normalizeProject(wire(once))).toEqual(once);
      }),
      { numRuns: 500 },
    );
  });

  it('given any JSON object, keeps every field it does not know and always has a status and an active flag', () => {
    const field = fc.constantFrom(
      'id',
      'active',
      'status',
      'date_changed',
      'date_updated',
      'date_created',
      'privacy',
      'rate',
      'time_total',
      '__proto__',
      'constructor',
    );
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(field, fc.string()), fc.jsonValue()), (raw) => {
        const input = wire(raw);
        const project = normalizeProject(input);
        expect(['active', 'archived']).toContain(project.status);
        expect(typeof project.active).toBe('boolean');
        for (const key of Object.keys(input)) if (key !== 'date_changed') expect(Object.hasOwn(project, key), key).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('output formats (core/term/output/)', () => {
  function capture(format: Format) {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk) => (text += chunk));
    return { output: new Output(stream, format, false), text: () => text };
  }
  const value = fc.oneof(
    anyText,
    fc.string({ unit: fc.constantFrom('"', ',', '\n', '\r', '\t', '\\', 'é', '😀', '\u001b', ' ') }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const table = fc.array(fc.record({ a: value, b: value, c: value }), { minLength: 1, maxLength: 8 });
  const columns = ['a', 'b', 'c'].map((key) => ({ header: key, value: (row: Record<string, unknown>) => row[key] }));
  /** TSV's own escapes undone: \\ \t \r \n, and the control characters' \e, \x.. and \u..... */
  const unescapeTsv = (field: string) =>
    field.replace(
      /\\([\\trne]|x[0-9a-f]{2}|u[0-9a-f]{4})/g,
      (_match, c: string) => ({ '\\': '\\', t: '\t', r: '\r', n: '\n', e: '\u001b' })[c] ?? String.fromCharCode(parseInt(c.slice(1), 16)),
    );
  /** The control characters csv and tsv escape: a pipe to a terminal must not obey them; the bidi controls too. */
  const DATA_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  /** A cell a spreadsheet would run as a formula: text, not a number, starting with = + - @, a tab or a CR. */
  const formulaLike = (value: unknown, text: string) => typeof value !== 'number' && /^[=+\-@\t\r]/.test(text);
  /** The text a csv or tsv cell holds for `value`, once the format's escapes are undone: quoted when formula-like (OWASP). */
  const spreadsheetText = (value: unknown) => (formulaLike(value, cellText(value)) ? `'${cellText(value)}` : cellText(value));

  it('csv reads back with csv-parse exactly, whatever the strings hold, control characters escaped', async () => {
    await fc.assert(
      fc.asyncProperty(table, async (rows) => {
        const { output, text } = capture('csv');
        await output.list(rows, columns);
        expect(text()).not.toMatch(DATA_CONTROL);
        const cells = parse(text()) as string[][];
        expect(cells).toEqual([
          ['a', 'b', 'c'],
          ...rows.map((row) => [row.a, row.b, row.c].map((value) => escapeDataControls(spreadsheetText(value)))),
        ]);
        cells
          .slice(1)
          .forEach((line, at) => line.forEach((cell, column) => expect(formulaLike(Object.values(rows[at]!)[column], cell)).toBe(false)));
      }),
      { numRuns: 1000 },
    );
  });

  it('tsv has one line per row and one tab per column, and its escapes undo exactly', async () => {
    await fc.assert(
      fc.asyncProperty(table, async (rows) => {
        const { output, text } = capture('tsv');
        await output.list(rows, columns);
        const lines = text().slice(0, -1).split('\n');
        expect(lines).toHaveLength(rows.length + 1);
        expect(lines.map((line) => line.split('\t').map(unescapeTsv))).toEqual([
          ['a', 'b', 'c'],
          ...rows.map((row) => [row.a, row.b, row.c].map(spreadsheetText)),
        ]);
        expect(text()).not.toMatch(/\r/);
        expect(text()).not.toMatch(DATA_CONTROL);
      }),
      { numRuns: 1000 },
    );
  });

  it('json and ndjson read back as the rows', async () => {
    await fc.assert(
      fc.asyncProperty(table, async (rows) => {
        const json = capture('json');
        await json.output.list(rows, columns);
        expect(JSON.parse(json.text())).toEqual(rows);
        const ndjson = capture('ndjson');
        await ndjson.output.list(rows, columns);
        expect(
          ndjson
            .text()
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line)),
        ).toEqual(rows);
      }),
      { numRuns: 500 },
    );
  });

  it('a table of any Unicode renders, and obeys no control character from the data', async () => {
    const cell = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: 'binary-ascii', maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ a: cell, b: cell, c: cell }), { minLength: 1, maxLength: 5 }), async (rows) => {
        const list = capture('table');
        await list.output.list(rows, columns);
        const one = capture('table');
        await one.output.object(rows[0]!);
        for (const text of [list.text(), one.text()])
          expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
      }),
      { numRuns: 300 },
    );
  });

  it('an error line is one line without control characters, of bounded length, whatever it quotes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary-ascii', maxLength: 5000 })), (text) => {
        const line = oneLine(text);
        // Controls, and the bidi and zero-width characters that make one text look like another.
        const hidden = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;
        expect(line).not.toMatch(hidden);
        expect(Array.from(line).length).toBeLessThanOrEqual(1100);
        if (!hidden.test(text) && Array.from(text).length <= 1000) expect(line).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });
});
