// Long work on the catalog as a person at a terminal sees it: `--all` says how far it is and each wait before a
// retry says why and how long, on one line of stderr that is gone from the screen when the work ends, fails,
// is interrupted or loses the reader of its output. A script (stderr not a terminal) and -q hear nothing of it.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { CatalogSandbox } from '../../src/sandbox/catalog/server.js';
import { seededCatalog, startSandbox } from '../helpers/catalog-fixtures.js';
import { BIN, runCli } from '../helpers/cli.js';
import { finalScreen, RETRY_WAIT } from '../helpers/screen.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { inTerminal } from '../helpers/terminal.js';

let catalog: CatalogSandbox;
beforeAll(async () => {
  catalog = await startSandbox(seededCatalog(1000));
});
afterAll(() => catalog.close());
beforeEach(() => {
  catalog.server.faults.clear();
  catalog.server.requests.length = 0;
});

const env = () => ({ TRIDENT_CATALOG_URL: catalog.url });
const productPages = () => catalog.server.requests.filter((request) => request.path === '/products').length;
/** Every page but the first comes a little late: the walk takes long enough to be seen. */
const slowPages = () => catalog.server.faults.add({ path: '/products', skip: 1, times: 9, fault: { kind: 'delay', ms: 150 } });
const PROGRESS = /products: \d+ of 1000/;

describeWithTools(['script'], 'on a terminal', () => {
  it('--all shows how many of how many are in, and the line is gone when the table is printed', async () => {
    slowPages();
    const run = inTerminal(['catalog', 'products', '--all', '--columns', 'canonical_product_id'], { env: env() });
    expect(await run.exitCode()).toBe(0);
    expect(run.screen()).toMatch(PROGRESS);
    const screen = finalScreen(run.screen());
    expect(screen.join('\n')).not.toMatch(/products: \d/);
    expect(screen.filter((line) => /^│ [0-9a-f-]{36} │$/.test(line))).toHaveLength(1000);
  });

  it('--all | head -1: the line is gone when the reader of stdout goes away', async () => {
    slowPages();
    const run = inTerminal(['catalog', 'products', '--all', '-o', 'ndjson'], { env: env() }, { pipeTo: 'head -1' });
    expect(await run.exitCode()).toBe(0);
    expect(run.screen()).toMatch(PROGRESS);
    const screen = finalScreen(run.screen()).filter((line) => line !== '');
    expect(screen).toHaveLength(1);
    expect(JSON.parse(screen[0]!)).toHaveProperty('canonical_product_id');
  });

  it('--all interrupted (Ctrl-C): the line is gone and "interrupted" starts a line of its own', async () => {
    // The third page never comes: the walk stays where it is until the interrupt.
    catalog.server.faults.add({ path: '/products', skip: 2, fault: { kind: 'hang' } });
    const run = inTerminal(['catalog', 'products', '--all'], { env: env() });
    await run.waitFor('products: 100 of 1000');
    run.press('\u0003');
    expect(await run.exitCode()).toBe(130);
    const screen = finalScreen(run.screen()).filter((line) => line !== '');
    expect(screen).toEqual(['trident: interrupted']);
  });

  it('--all ended by SIGTERM (a CI job cancelled): the line is gone and the reason starts a line of its own', async () => {
    catalog.server.faults.add({ path: '/products', skip: 2, fault: { kind: 'hang' } });
    // A page size no other test asks for tells this run's process apart.
    const run = inTerminal(['catalog', 'products', '--all', '--limit', '97'], { env: env() });
    await run.waitFor('products: 97 of 1000');
    process.kill(pidWithArgs(['catalog', 'products', '--all', '--limit', '97']), 'SIGTERM');
    expect(await run.exitCode()).toBe(130);
    expect(finalScreen(run.screen()).filter((line) => line !== '')).toEqual(['trident: interrupted (SIGTERM)']);
  });

  it('--all failing midway: the line is gone and the error starts a line of its own', async () => {
    catalog.server.faults.add({ path: '/products', skip: 3, times: 9, fault: { kind: 'status', status: 500, body: { detail: 'boom' } } });
    const run = inTerminal(['--retries', '0', 'catalog', 'products', '--all', '-o', 'ndjson'], { env: env() }, { pipeTo: 'wc -l' });
    expect(await run.exitCode()).toBe(0); // wc's
    expect(run.screen()).toMatch(PROGRESS);
    const screen = finalScreen(run.screen()).filter((line) => line !== '');
    expect(screen[0]).toBe('trident: catalog service answered 500: boom');
    expect(screen.join('\n')).not.toMatch(/products: \d/);
    expect(screen.at(-1)).toMatch(/^\s*\d+$/);
  });

  it('a wait before a retry says why, which attempt comes and when, and is gone once the answer is in', async () => {
    catalog.server.faults.add({ path: '/products', times: 2, fault: { kind: 'status', status: 503, body: { detail: 'busy' } } });
    const run = inTerminal(['catalog', 'products', '--limit', '2', '--columns', 'canonical_product_id'], { env: env() });
    expect(await run.exitCode()).toBe(0);
    expect(run.screen()).toMatch(new RegExp(`\r\u001b\\[2K503: attempt 2 of 4 in ${RETRY_WAIT}`));
    expect(run.screen()).toMatch(new RegExp(`\r\u001b\\[2K503: attempt 3 of 4 in ${RETRY_WAIT}`));
    expect(run.screen()).not.toContain('attempt 4');
    expect(finalScreen(run.screen()).join('\n')).not.toContain('attempt');
    expect(productPages()).toBe(3);
  });

  it("a Retry-After wait counts down on the line, and the service's wait is the one kept", async () => {
    catalog.server.faults.add({ path: '/products', fault: { kind: 'status', status: 429, headers: { 'retry-after': '2' } } });
    const started = performance.now();
    const run = inTerminal(['catalog', 'products', '--limit', '2', '--columns', 'canonical_product_id'], { env: env() });
    expect(await run.exitCode()).toBe(0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2000);
    expect(run.screen()).toContain('429: attempt 2 of 4 in 2 s');
    expect(run.screen()).toContain('429: attempt 2 of 4 in 1 s');
    expect(finalScreen(run.screen()).join('\n')).not.toContain('attempt');
    expect(productPages()).toBe(2);
  });

  it('a service that is not there: each wait says "connection refused", and the error is what is left', async () => {
    const port = await closedPort();
    const started = performance.now();
    const run = inTerminal(['catalog', 'products', '--url', `http://127.0.0.1:${port}`], {});
    expect(await run.exitCode()).toBe(8);
    expect(performance.now() - started).toBeLessThan(15_000);
    for (const attempt of [2, 3, 4])
      expect(run.screen()).toMatch(new RegExp(`connection refused: attempt ${attempt} of 4 in ${RETRY_WAIT}`));
    expect(finalScreen(run.screen()).filter((line) => line !== '')).toEqual([
      `trident: cannot connect to 127.0.0.1:${port}: connection refused`,
      'hint: check the URL and that the service is running',
    ]);
  });

  it('-q: no progress and no waits on the terminal', async () => {
    catalog.server.faults.add({ path: '/products', times: 1, fault: { kind: 'status', status: 503 } });
    slowPages();
    const run = inTerminal(['-q', 'catalog', 'products', '--all', '-o', 'ndjson'], { env: env() }, { pipeTo: 'wc -l' });
    expect(await run.exitCode()).toBe(0);
    expect(run.screen().trim()).toBe('1000');
    expect(productPages()).toBe(11);
  });
});

it('stderr not a terminal: nothing at all on it, through retries and every page', async () => {
  catalog.server.faults.add({ path: '/products', times: 2, fault: { kind: 'status', status: 503 } });
  slowPages();
  const result = await runCli(['catalog', 'products', '--all', '-o', 'ndjson'], { env: env() });
  expect(result.exitCode).toBe(0);
  expect(result.stderr).toBe('');
  expect(result.stdout.trim().split('\n')).toHaveLength(1000);
  expect(productPages()).toBe(12);
});

/** The one process of the built CLI whose arguments end with these. */
function pidWithArgs(args: string[]): number {
  const tail = [BIN, ...args].join('\0');
  const pids = readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0$/, '').endsWith(tail);
    } catch {
      return false; // gone meanwhile
    }
  });
  expect(pids).toHaveLength(1);
  return Number(pids[0]);
}

/** A loopback port nothing listens on: taken, then let go. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
