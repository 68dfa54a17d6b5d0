// --all over a seeded catalog of 2500 products: every page, every row once, in every output format, rows
// written while later pages are still on their way, all over one keep-alive connection.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';
import { seededCatalog } from '../helpers/catalog-fixtures.js';
import { PAGES_AHEAD } from '../../src/catalog/pages.js';
import { useCatalogSandbox } from '../helpers/per-suite.js';

const PRODUCTS = 2500;
const sandbox = useCatalogSandbox(seededCatalog(PRODUCTS));

const catalog = (args: string[], env: Record<string, string> = {}) =>
  runCli(['catalog', ...args], { env: { TRIDENT_CATALOG_URL: sandbox.url, ...env } });

async function serviceTotal(path: string): Promise<number> {
  const answer = (await (await fetch(`${sandbox.url}${path}`)).json()) as { meta: { total: number } };
  return answer.meta.total;
}

function expectEveryProductOnce(ids: unknown[], total = PRODUCTS): void {
  expect(ids).toHaveLength(total);
  expect(new Set(ids).size).toBe(total);
}

/** TSV as written by trident: a header, tab-separated fields with \t \n \r \\ escaped. */
function parseTsv(text: string): Array<Record<string, string>> {
  const [header, ...lines] = text.replace(/\n$/, '').split('\n');
  const keys = header!.split('\t');
  const unescape = (field: string) => field.replace(/\\([\\tnr])/g, (_, c: string) => ({ '\\': '\\', t: '\t', n: '\n', r: '\r' })[c]!);
  return lines.map((line) => Object.fromEntries(line.split('\t').map((field, i) => [keys[i], unescape(field)])));
}

describe('products --all', () => {
  it('ndjson: every product once, count = meta.total, pages of 100', async () => {
    const total = await serviceTotal('/products?limit=1');
    expect(total).toBe(PRODUCTS);
    const before = sandbox.server.requests.length;
    const result = await catalog(['products', '--all', '-o', 'ndjson']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    const rows = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { canonical_product_id: string });
    expectEveryProductOnce(
      rows.map((row) => row.canonical_product_id),
      total,
    );
    // Each page asked for once; pages asked for ahead come on connections of their own, so in any order.
    const pages = sandbox.server.requests.slice(before).filter((r) => r.path === '/products');
    expect(pages.map((r) => r.query).sort()).toEqual(
      Array.from({ length: PRODUCTS / 100 }, (_, i) => `?limit=100&offset=${i * 100}`).sort(),
    );
  });

  it('csv, tsv and json parse back to the same products, with filters and odd page sizes', async () => {
    const csv = await catalog(['products', '--all', '--limit', '37', '-o', 'csv']);
    const csvRows = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    expectEveryProductOnce(csvRows.map((row) => row.canonical_product_id));
    const tsvRows = parseTsv((await catalog(['products', '--all', '-o', 'tsv'])).stdout);
    expect(tsvRows.map((row) => row.canonical_product_id)).toEqual(csvRows.map((row) => row.canonical_product_id));
    expect(tsvRows.map((row) => row.title)).toEqual(csvRows.map((row) => row.title));
    const json = JSON.parse((await catalog(['products', '--all', '-o', 'json'])).stdout) as Array<{
      canonical_product_id: string;
      title: string;
      parsers: string[];
    }>;
    expect(json.map((row) => row.title)).toEqual(csvRows.map((row) => row.title));
    expect(json.map((row) => row.parsers.join(','))).toEqual(csvRows.map((row) => row.parsers));

    const filtered = (await catalog(['products', '--all', '--store', 'chizhik', '--limit', '100', '-o', 'ndjson'])).stdout
      .trimEnd()
      .split('\n');
    const total = await serviceTotal('/products?parser_name=chizhik&limit=1');
    expect(total).toBeGreaterThan(100);
    expectEveryProductOnce(
      filtered.map((line) => (JSON.parse(line) as { canonical_product_id: string }).canonical_product_id),
      total,
    );
  });

  it('starts at --offset, and one page without --all is just that page', async () => {
    const tail = (await catalog(['products', '--all', '--offset', '2450', '-o', 'ndjson'])).stdout.trimEnd().split('\n');
    expect(tail).toHaveLength(50);
    const page = JSON.parse((await catalog(['products', '--limit', '50', '--offset', '2450', '-o', 'json'])).stdout) as {
      items: unknown[];
      meta: unknown;
    };
    expect(page.items.map((row) => JSON.stringify(row))).toEqual(tail);
    expect(page.meta).toEqual({ limit: 50, offset: 2450, total: 2500, next_offset: null });
    const first = JSON.parse((await catalog(['products', '--limit', '50', '-o', 'json'])).stdout) as { meta: unknown };
    expect(first.meta).toEqual({ limit: 50, offset: 0, total: 2500, next_offset: 50 });
  });

  it('writes rows while a later page is still on its way, over a few kept-alive connections', async () => {
    const proxy = await holdingProxy(sandbox.url, (url) => url.pathname === '/products' && Number(url.searchParams.get('offset')) === 2000);
    try {
      const child = spawnCli(['catalog', 'products', '--all', '-o', 'ndjson'], { env: { TRIDENT_CATALOG_URL: proxy.url } });
      let lines = 0;
      child.stdout!.on('data', (chunk: Buffer) => {
        for (const byte of chunk) if (byte === 0x0a) lines += 1;
      });
      await proxy.held;
      // Pages up to offset 1900 are in; the one at 2000 is held: exactly their 2000 rows are out.
      await until(() => lines >= 2000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines).toBe(2000);
      expect(child.exitCode).toBeNull();
      proxy.release();
      const result = await child;
      expect(result.exitCode).toBe(0);
      const ids = String(result.stdout)
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { canonical_product_id: string }).canonical_product_id);
      expectEveryProductOnce(ids);
      expect(proxy.ports).toHaveLength(PRODUCTS / 100);
      // One for the page being read and one for each page asked for ahead, each kept alive.
      expect(new Set(proxy.ports).size).toBeLessThanOrEqual(PAGES_AHEAD + 1);
    } finally {
      proxy.release();
      await proxy.close();
    }
  });
});

describe('other lists --all', () => {
  it('sources, snapshots, categories and settlements follow every page', async () => {
    const page = (await (await fetch(`${sandbox.url}/products?limit=100`)).json()) as {
      items: Array<{ canonical_product_id: string; sources_count: number }>;
    };
    const id = page.items.reduce((most, item) => (item.sources_count > most.sources_count ? item : most)).canonical_product_id;
    const cases: Array<[string[], string]> = [
      [['snapshots', id, '--limit', '3'], `/products/${id}/snapshots?limit=1`],
      [['sources', id, '--limit', '1'], `/products/${id}/sources?limit=1`],
      [['categories', '--limit', '7'], '/categories?limit=1'],
      [['settlements', '--limit', '2'], '/settlements?limit=1'],
    ];
    for (const [args, totalPath] of cases) {
      const total = await serviceTotal(totalPath);
      expect(total, args[0]).toBeGreaterThan(Number(args.at(-1)));
      const rows = (await catalog([...args, '--all', '-o', 'ndjson'])).stdout.trimEnd().split('\n');
      expect(rows, args[0]).toHaveLength(total);
      expect(new Set(rows).size).toBe(total);
    }
  });
});

interface HoldingProxy {
  url: string;
  /** The client port of each request: one keep-alive connection means one port. */
  ports: number[];
  held: Promise<void>;
  release(): void;
  close(): Promise<void>;
}

/** Forwards to `target`, holding the first request `hold` picks until release(). */
async function holdingProxy(target: string, hold: (url: URL) => boolean): Promise<HoldingProxy> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let markHeld!: () => void;
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  const ports: number[] = [];
  const server: Server = createServer((req, res) => {
    ports.push(req.socket.remotePort!);
    const url = new URL(req.url!, target);
    void (async () => {
      if (hold(url)) {
        markHeld();
        await released;
      }
      const upstream = await fetch(url);
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ports,
    held,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
