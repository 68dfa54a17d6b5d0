// Properties of every parser of outside input: --from/--to times, Retry-After, PEM keys, the customer CSV and
// names. Each either reads its input exactly or refuses it with a usage error (exit 2), whatever it is given.
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { parseTime } from '../../src/catalog/time-range.js';
import { MAX_NAME_LENGTH, nameProblem } from '../../src/core/names.js';
import { parseRetryAfter } from '../../src/core/http/retry.js';
import { privateKeyFromPem, publicKeyForUpload } from '../../src/keys/mint/keypair.js';
import { parseCustomerCsv } from '../../src/time/csv.js';
import { usageOnly, usageOnlyAsync } from './usage-only.js';

const NOW = new Date('2026-03-15T12:34:56.789Z');
const MINUTE = 60_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** `2026-03-15T12:34:56.789` of a time read in UTC (the digits of a local time, when shifted first). */
const digits = (time: Date, separator = 'T') =>
  `${pad(time.getUTCFullYear(), 4)}-${pad(time.getUTCMonth() + 1)}-${pad(time.getUTCDate())}${separator}${pad(time.getUTCHours())}:${pad(time.getUTCMinutes())}:${pad(time.getUTCSeconds())}.${pad(time.getUTCMilliseconds(), 3)}`;
const someTime = fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9000-12-31T23:59:59.999Z'), noInvalidDate: true });

describe('--from/--to (catalog/time-range.ts)', () => {
  it('reads every ISO 8601 UTC time back exactly', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        (time) => {
          expect(parseTime(time.toISOString(), '--from', NOW).getTime()).toBe(time.getTime());
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('reads a local time with any offset spelling (+hh:mm, +hhmm, +hh) as the same instant', () => {
    const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
    fc.assert(
      fc.property(
        someTime,
        offset,
        fc.constantFrom('colon', 'bare', 'hours'),
        fc.constantFrom('T', ' '),
        (time, minutes, spelling, separator) => {
          const whole = spelling === 'hours' ? Math.trunc(minutes / 60) * 60 : minutes;
          const sign = whole < 0 ? '-' : '+';
          const hh = pad(Math.floor(Math.abs(whole) / 60));
          const mm = pad(Math.abs(whole) % 60);
          const zone = spelling === 'colon' ? `${sign}${hh}:${mm}` : spelling === 'bare' ? `${sign}${hh}${mm}` : `${sign}${hh}`;
          const text = `${digits(new Date(time.getTime() + whole * MINUTE), separator)}${zone}`;
          expect(parseTime(text, '--from', NOW).getTime()).toBe(time.getTime());
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses every time without an offset, with exit 2 and how to add one', () => {
    fc.assert(
      fc.property(someTime, fc.constantFrom('T', ' '), (time, separator) => {
        const text = digits(time, separator);
        expect(() => parseTime(text, '--to', NOW)).toThrow(
          expect.objectContaining({ exitCode: 2, message: expect.stringContaining('has no UTC offset') }),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('reads a date as its UTC midnight', () => {
    fc.assert(
      fc.property(someTime, (time) => {
        const midnight = Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate());
        expect(parseTime(digits(time).slice(0, 10), '--from', NOW).getTime()).toBe(midnight);
      }),
      { numRuns: 500 },
    );
  });

  it('reads -N[mhdw] as that long before now (whole seconds), or refuses a span beyond the calendar', () => {
    const unitMs = { m: MINUTE, h: 60 * MINUTE, d: 1440 * MINUTE, w: 7 * 1440 * MINUTE } as const;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.constantFrom('m', 'h', 'd', 'w'), (n, unit) => {
        const expected = Math.floor(NOW.getTime() / 1000) * 1000 - n * unitMs[unit];
        const time = usageOnly(() => parseTime(`-${n}${unit}`, '--from', NOW));
        if (time === undefined) expect(expected).toBeLessThan(Date.parse('0001-01-01T00:00:00Z'));
        else expect(time.getTime()).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('given anything, returns a real time or refuses with exit 2', () => {
    const timeLike = fc.oneof(
      fc.stringMatching(/^-?\d{0,12}[-:T +Zzmhdwy.,]{0,3}\d{0,12}[-:T +Zzmhdwy.,]{0,3}\d{0,6}$/),
      fc.stringMatching(/^-\d{1,10}[mhdw]$/),
    );
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary-ascii' }), timeLike), (text) => {
        const time = usageOnly(() => parseTime(text, '--from', NOW));
        if (time !== undefined) expect(Number.isFinite(time.getTime())).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('Retry-After (core/http/retry.ts parseRetryAfter)', () => {
  const now = Date.parse('2026-03-15T12:34:56Z');

  it('reads delta-seconds, with any whitespace around', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom('', ' ', '\t', '  '), (seconds, space) => {
        expect(parseRetryAfter(`${space}${seconds}${space}`, now)).toBe(seconds * 1000);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads an HTTP-date as the time until then, and a past one as no wait', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), (seconds) => {
        const then = now + seconds * 1000;
        expect(parseRetryAfter(new Date(then).toUTCString(), now)).toBe(Math.max(0, then - now));
      }),
      { numRuns: 1000 },
    );
  });

  it('given anything, never throws and never asks for a wait that is not a finite number of ms', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary-ascii' }),
          fc.stringMatching(/^\s*\d{1,20}\s*$/),
          fc.integer({ min: 300, max: 400 }).map((n) => '9'.repeat(n)),
        ),
        (text) => {
          const wait = parseRetryAfter(text, now);
          if (wait !== undefined) {
            expect(Number.isFinite(wait)).toBe(true);
            expect(wait).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('PEM keys (keys/mint/keypair.ts)', () => {
  const rsa = [generateKeyPairSync('rsa', { modulusLength: 2048 }), generateKeyPairSync('rsa', { modulusLength: 2048 })];
  const ed = [generateKeyPairSync('ed25519'), generateKeyPairSync('ed25519')];
  const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();
  const pool = [
    ...rsa.map((pair) => ({ pem: pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), public: spki(pair.publicKey) })),
    ...[...rsa, ...ed].map((pair) => ({
      pem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      public: spki(pair.publicKey),
    })),
  ];
  /** What CI secret stores and copy-paste do to PEM text. */
  const mangling = fc.record({
    escaped: fc.boolean(),
    crlf: fc.boolean(),
    quote: fc.constantFrom('', '"', "'"),
    before: fc.constantFrom('', ' ', '\n', '\n\n  '),
    after: fc.constantFrom('', ' ', '\n', '\r\n', '\t\n'),
  });
  const mangle = (pem: string, m: { escaped: boolean; crlf: boolean; quote: string; before: string; after: string }) => {
    let text = m.crlf ? pem.replace(/\n/g, '\r\n') : pem;
    if (m.escaped) text = text.trim().replace(/\r\n/g, '\\r\\n').replace(/\n/g, '\\n');
    return `${m.before}${m.quote}${text}${m.quote}${m.after}`;
  };

  it('reads a private key however it was pasted (\\n escapes, CRLF, quotes, blank lines): the same key', () => {
    fc.assert(
      fc.property(fc.constantFrom(...pool), mangling, (key, m) => {
        const text = mangle(key.pem, m);
        expect(spki(createPublicKey(privateKeyFromPem(text, 'TRIDENT_PRIVATE_KEY')))).toBe(key.public);
        const upload = publicKeyForUpload(text, '--public-key');
        expect(upload).toMatchObject({ publicKeyPem: key.public, fromPrivateKey: true });
      }),
      { numRuns: 300 },
    );
  });

  it('given a damaged key or any text at all, refuses with exit 2 (never a crash)', () => {
    const damaged = fc
      .constantFrom(...pool)
      .chain((key) =>
        fc
          .tuple(fc.nat(key.pem.length - 1), fc.nat(key.pem.length), fc.string({ unit: 'binary-ascii', maxLength: 3 }))
          .map(([at, to, insert]) => key.pem.slice(0, at) + insert + key.pem.slice(Math.max(at, to))),
      );
    fc.assert(
      fc.property(fc.oneof(damaged, fc.string({ unit: 'binary-ascii' })), (text) => {
        usageOnly(() => privateKeyFromPem(text, 'key'));
        usageOnly(() => publicKeyForUpload(text, 'key'));
      }),
      { numRuns: 500 },
    );
  });
});

describe('the customer CSV (time/csv.ts)', () => {
  // Names with everything a CSV has to quote: commas, quotes, line breaks, and Unicode.
  const nameChar = fc.oneof(
    fc.constantFrom(',', '"', '\n', ' ', "'", ';', '\t'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  );
  const name = fc
    .array(nameChar, { minLength: 1, maxLength: 20 })
    .map((chars) => chars.join(''))
    .filter((text) => text.trim() !== '' && nameProblem(text.trim()) === undefined);
  const rows = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 2 ** 31 }), name }), {
    minLength: 1,
    maxLength: 12,
    selector: (row) => row.id,
  });

  it('reads back every id and name written by csv-stringify, with the line each row starts on', async () => {
    await fc.assert(
      fc.asyncProperty(rows, fc.boolean(), fc.boolean(), fc.boolean(), async (written, nameFirst, crlf, bom) => {
        const columns = nameFirst ? ['name', 'id'] : ['id', 'name'];
        const text = stringify([columns, ...written.map((row) => columns.map((column) => String(row[column as 'id' | 'name'])))], {
          record_delimiter: crlf ? '\r\n' : '\n',
        });
        const read = await parseCustomerCsv(`${bom ? '\ufeff' : ''}${text}`, 'renames.csv');
        let line = 2;
        const expected = written.map((row) => {
          const result = { line, id: row.id, name: row.name.trim() };
          line += 1 + (row.name.match(/\r\n|\n|\r/g)?.length ?? 0);
          return result;
        });
        expect(read).toEqual({ rows: expected, invalid: [] });
      }),
      { numRuns: 500 },
    );
  });

  it('given any text, returns rows or refuses the whole file with exit 2', async () => {
    const csvish = fc
      .array(fc.constantFrom('id', 'name', ',', '"', '\n', '\r\n', '1', '42', '-3', 'x', ' ', '\ufeff', '\u001b'), { maxLength: 40 })
      .map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(fc.oneof(csvish, fc.string({ unit: 'binary-ascii' })), async (text) => {
        const read = await usageOnlyAsync(() => parseCustomerCsv(text, 'f.csv'));
        for (const row of read?.rows ?? []) {
          expect(Number.isSafeInteger(row.id) && row.id > 0).toBe(true);
          expect(nameProblem(row.name)).toBeUndefined();
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('names (core/names.ts)', () => {
  it(`accepts exactly the names of at most ${MAX_NAME_LENGTH} characters with no control character but tab and line breaks`, () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.oneof(
            fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
            fc.constantFrom('\u001b', '\u0007', '\u0085', '\t', '\n'),
          ),
          maxLength: 300,
        }),
        (text) => {
          const length = Array.from(text).length;
          const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(text);
          expect(nameProblem(text) === undefined).toBe(length <= MAX_NAME_LENGTH && !control);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
