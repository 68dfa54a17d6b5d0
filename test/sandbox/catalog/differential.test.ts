// The sandbox catalog against an independent model of the public service (test/helpers/catalog-reference.ts,
// written from the service's documented behaviour): seeded random requests, valid and invalid, over three
// databases — the hand-made fixture, the seeded demo catalog and one written exactly as the real converter
// writes — comparing status and JSON body of every answer.
import { rmSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedCatalogDb } from '../../../src/sandbox/catalog/seed/seed-catalog.js';
import { startCatalogSandbox } from '../../../src/sandbox/catalog/server.js';
import { openSqlite } from '../../../src/sandbox/catalog/sqlite/open.js';
import { CatalogReference, KNOWN_TIMES } from '../../helpers/catalog-reference.js';
import { buildConverterDb } from './converter-db.js';
import { buildCatalogDb, HAND_MADE_CATALOG, seededRandom, tempDir } from './fixture.js';

const REQUESTS_PER_DATABASE = 1000;
// One kept-alive connection: fetch() costs several times more per request, and thousands are sent.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const dirs: string[] = [];
afterAll(() => {
  agent.destroy();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** GET with the status and the JSON body (the raw text when it is not JSON). */
function get(origin: string, path: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${origin}${path}`, { agent, timeout: 10_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const isJson = (response.headers['content-type'] ?? '').includes('application/json');
        resolve({ status: response.statusCode ?? 0, body: isJson ? JSON.parse(text) : text });
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer to GET ${path} in 10 s`)));
    request.on('error', reject);
  });
}

type Rng = ReturnType<typeof seededRandom>;

/** Values taken from the database, so that filters find something as often as not. */
interface Vocabulary {
  products: string[];
  parsers: string[];
  sources: Array<[string, string, string]>;
  categoryIds: number[];
  settlementIds: number[];
  brands: string[];
  words: string[];
  regions: string[];
  countries: string[];
  parents: string[];
}

function vocabulary(file: string): Vocabulary {
  const db = openSqlite(file, { readonly: true });
  const column = (sql: string) => (db.prepare(sql).pluck().all() as unknown[]).filter((v) => v !== null).map(String);
  try {
    const titles = column('SELECT title_original FROM catalog_products LIMIT 200');
    return {
      products: column('SELECT DISTINCT canonical_product_id FROM catalog_products LIMIT 300'),
      parsers: column('SELECT DISTINCT parser_name FROM catalog_products'),
      sources: db
        .prepare('SELECT DISTINCT canonical_product_id, parser_name, source_id FROM catalog_product_snapshots LIMIT 300')
        .raw()
        .all() as Array<[string, string, string]>,
      categoryIds: column('SELECT id FROM catalog_categories').map(Number),
      settlementIds: column('SELECT id FROM catalog_settlements').map(Number),
      brands: column('SELECT DISTINCT brand FROM catalog_products LIMIT 50'),
      words: [...new Set(titles.flatMap((title) => title.split(/\s+/)).filter((word) => word.length > 2))].slice(0, 60),
      regions: column('SELECT DISTINCT COALESCE(region_normalized, region) FROM catalog_settlements'),
      countries: column('SELECT DISTINCT country FROM catalog_settlements'),
      parents: column('SELECT DISTINCT parent_source_uid FROM catalog_categories LIMIT 30'),
    };
  } finally {
    db.close();
  }
}

const BAD_INTS = ['abc', '1.5', '', '9223372036854775808', '-1', '0', '101'];
const GOOD_INTS = ['1', '5', '20', ' 7 ', '+3', '007', '2.0', '100'];
const FLOATS = ['10', '99.5', '150', 'nan', 'inf', '-inf', 'infinity', '1e309', ' 50 ', '.5', '0', 'cheap', ''];
const BOOLS = ['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', 'TRUE', 't', 'n', 'maybe', '', '2'];
const HUGE_OFFSET = '9223372036854775807';

function requestFor(rng: Rng, v: Vocabulary): string {
  const q = new URLSearchParams();
  const maybe = (name: string, p: number, value: () => string) => {
    if (rng.chance(p)) q.append(name, value());
  };
  const int = (good: () => string) => (rng.chance(0.85) ? good() : rng.pick(BAD_INTS));
  const paging = () => {
    maybe('limit', 0.4, () => int(() => rng.pick(GOOD_INTS)));
    maybe('offset', 0.3, () => (rng.chance(0.1) ? HUGE_OFFSET : int(() => String(Math.floor(rng.next() * 60)))));
  };
  const product = () => (rng.chance(0.9) && v.products.length ? rng.pick(v.products) : rng.pick(['no-such-product', 'history-only']));
  const route = rng.next();
  let path: string;
  if (route < 0.32) {
    path = '/products';
    paging();
    maybe('q', 0.2, () => (rng.chance(0.8) && v.words.length ? rng.pick(v.words).slice(0, 4) : rng.pick(['', '  ', '%', '_о', 'zzz'])));
    maybe('parser_name', 0.2, () => rng.pick([...v.parsers, 'FixPrice', 'nosuch']));
    maybe('category_id', 0.1, () => int(() => String(rng.pick([...v.categoryIds, 999]))));
    maybe('settlement_id', 0.2, () => int(() => String(rng.pick([...v.settlementIds, 999]))));
    maybe('brand', 0.1, () => (v.brands.length && rng.chance(0.8) ? rng.pick(v.brands).toUpperCase() : '  '));
    for (const flag of ['promo', 'is_new', 'hit', 'adult']) maybe(flag, 0.1, () => rng.pick(BOOLS));
    maybe('price_min', 0.12, () => rng.pick(FLOATS));
    maybe('price_max', 0.12, () => rng.pick(FLOATS));
    maybe('sort', 0.5, () => rng.pick(['observed_at_desc', 'observed_at_asc', 'price_asc', 'price_desc', 'rating_desc', 'cheapest']));
  } else if (route < 0.4) {
    path = `/products/${encodeURIComponent(product())}`;
  } else if (route < 0.47) {
    path = '/products/count';
    for (let i = Math.floor(rng.next() * 3); i > 0; i -= 1) q.append('store', rng.pick([...v.parsers, ' FixPrice ', 'nosuch', '']));
    for (let i = Math.floor(rng.next() * 3); i > 0; i -= 1) q.append('region', rng.pick([...v.regions, 'Москва', 'nowhere']));
  } else if (route < 0.54) {
    path = '/products/common/count';
    maybe('scope', 0.9, () => rng.pick(['stores', 'regions', ' Regions ', 'all']));
    for (let i = Math.floor(rng.next() * 3); i > 0; i -= 1) q.append('store', rng.pick([...v.parsers, 'nosuch']));
    for (let i = Math.floor(rng.next() * 3); i > 0; i -= 1) q.append('region', rng.pick([...v.regions, 'nowhere']));
  } else if (route < 0.62) {
    path = `/products/${encodeURIComponent(product())}/sources`;
    paging();
    maybe('sort', 0.4, () => rng.pick(['observed_at_desc', 'observed_at_asc', 'price_asc']));
  } else if (route < 0.7) {
    path = `/products/${encodeURIComponent(product())}/snapshots`;
    paging();
    maybe('parser_name', 0.3, () => rng.pick([...v.parsers, 'nosuch']));
    maybe('sort', 0.4, () => rng.pick(['observed_at_desc', 'observed_at_asc', 'newest']));
  } else if (route < 0.82) {
    const [id, parser, source] = v.sources.length && rng.chance(0.9) ? rng.pick(v.sources) : ['no-such-product', 'fixprice', '1'];
    path = `/products/${encodeURIComponent(id)}/dynamics`;
    const times = Object.keys(KNOWN_TIMES);
    const valid = times.filter((text) => KNOWN_TIMES[text]!.endsWith('Z'));
    maybe('parser_name', 0.97, () => (rng.chance(0.95) ? parser : ''));
    maybe('source_id', 0.97, () => (rng.chance(0.95) ? source : 'nosuch'));
    maybe('field', 0.97, () => rng.pick(['price', 'discount_price', 'loyal_price', 'available_count', 'price', 'rating']));
    maybe('date_from', 0.97, () => rng.pick(rng.chance(0.85) ? valid : times));
    maybe('date_to', 0.97, () => rng.pick(rng.chance(0.85) ? valid : times));
    maybe('interval', 0.97, () => rng.pick(['1d', '7d', '6h', '1d', '1h', '2h']));
  } else if (route < 0.88) {
    path = '/categories';
    paging();
    maybe('parser_name', 0.3, () => rng.pick([...v.parsers, 'nosuch']));
    maybe('depth', 0.3, () => int(() => String(Math.floor(rng.next() * 3))));
    maybe('parent_source_uid', 0.2, () => (v.parents.length ? rng.pick(v.parents) : 'x'));
    maybe('q', 0.2, () => rng.pick(['мол', 'MILK', 'uid', '', 'напит']));
  } else if (route < 0.9) {
    path = `/categories/${encodeURIComponent(rng.chance(0.8) ? String(rng.pick([...v.categoryIds, 999])) : rng.pick(['abc', '1.5', ' 3']))}`;
  } else if (route < 0.95) {
    path = '/settlements';
    paging();
    maybe('country', 0.2, () => rng.pick([...v.countries, 'Russia']));
    maybe('region', 0.2, () => rng.pick(['Москва', 'Moscow', 'москва', 'Saint Petersburg']));
    maybe('q', 0.3, () => rng.pick(['моск', 'MOSC', 'петер', 'spb', '']));
  } else if (route < 0.97) {
    path = `/settlements/${encodeURIComponent(rng.chance(0.8) ? String(rng.pick([...v.settlementIds, 999])) : 'x')}`;
  } else {
    path = '/sync/cursors';
    maybe('parser_name', 0.5, () => rng.pick([...v.parsers, ' FIXPRICE ', 'nosuch']));
  }
  const query = q.toString();
  return query ? `${path}?${query}` : path;
}

function databases(): Array<[string, string]> {
  const seeded = join(tempDir(), 'seeded.db');
  seedCatalogDb(seeded, { products: 200, seed: 18, now: new Date('2026-03-01T00:00:00Z') });
  const fixture = buildCatalogDb({
    ...HAND_MADE_CATALOG,
    cursors: [{ key: 'receiver_cursor:fixprice', value: '2026-02-03T10:00:00+00:00\t42' }],
  });
  const converter = buildConverterDb(join(tempDir(), 'converter.db'));
  for (const file of [seeded, fixture, converter]) dirs.push(dirname(file));
  return [
    ['the hand-made fixture', fixture],
    ['the seeded demo catalog', seeded],
    ['a database as the real converter writes it', converter],
  ];
}

describe('catalog sandbox = the reference model of the public service', () => {
  it.each(databases())(
    '%s: status and JSON of random requests agree',
    async (_name, file) => {
      const reference = new CatalogReference(file);
      const sandbox = await startCatalogSandbox({ dbFile: file });
      const rng = seededRandom(file.length * 7919 + 18);
      const vocab = vocabulary(file);
      const statuses = new Map<number, number>();
      try {
        for (let i = 0; i < REQUESTS_PER_DATABASE; i += 1) {
          const request = requestFor(rng, vocab);
          const url = new URL(request, 'http://reference');
          const expected = reference.answer(url.pathname, url.searchParams);
          const actual = await get(sandbox.url, request);
          expect({ status: actual.status, body: actual.body }, `#${i} GET ${request}`).toEqual(expected);
          statuses.set(actual.status, (statuses.get(actual.status) ?? 0) + 1);
        }
      } finally {
        reference.close();
        await sandbox.close();
      }
      // Both sides of every rule were exercised: answers, refusals and misses.
      for (const status of [200, 400, 404, 422]) expect(statuses.get(status), `answers with status ${status}`).toBeGreaterThan(10);
    },
    120_000,
  );
});
