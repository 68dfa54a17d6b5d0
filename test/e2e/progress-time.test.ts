// A batch of customer renames as a person at a terminal sees it: a line on stderr says how many rows are through,
// and is gone when the batch ends, when the service dies midway, or on Ctrl-C; the summary and the errors start
// lines of their own. A script (stderr not a terminal) and -q hear only the summary, as before.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { startTimeSandbox } from '../../src/sandbox/time/server.js';
import { runCli } from '../helpers/cli.js';
import { finalScreen, RETRY_WAIT } from '../helpers/screen.js';
import { describeWithTools } from '../helpers/system-tools.js';
import { inTerminal } from '../helpers/terminal.js';
import { useTimeSandbox, type TimeHarness } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();
const ROWS = 40;
/** Customers of the test's own, one per row. */
const FIRST_ID = 1000;
const PROGRESS = new RegExp(`customers: \\d+ of ${ROWS}`);

/** A rename of each of ROWS customers, in a file of its own; the customers are added to the sandbox. */
function renames(harness: TimeHarness = time): string {
  const file = join(mkdtempSync(join(tmpdir(), 'trident-progress-')), 'renames.csv');
  for (let row = 0; row < ROWS; row += 1) harness.sandbox.control.addCustomer({ id: FIRST_ID + row, name: `Old ${row}` });
  const lines = Array.from({ length: ROWS }, (_, row) => `${FIRST_ID + row},Customer ${row + 1}`);
  writeFileSync(file, `id,name\n${lines.join('\n')}\n`);
  return file;
}

const posts = (harness: TimeHarness) =>
  harness.sandbox.server.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/v1/customers/'));
/** Each rename answers a little late: the batch takes long enough to be seen. */
const slowRows = (harness: TimeHarness, ms = 50) =>
  harness.sandbox.server.faults.add({ method: 'POST', path: /^\/api\/v1\/customers\//, times: ROWS, fault: { kind: 'delay', ms } });
const shown = (written: string) =>
  finalScreen(written)
    .filter((line) => line !== '')
    .map((line) => line.trim());

beforeEach(() => {
  time.sandbox.server.faults.clear();
  time.sandbox.server.requests.length = 0;
});

describeWithTools(['script'], 'on a terminal', () => {
  it('says how many rows are through, and leaves only the summary when the batch ends', async () => {
    slowRows(time);
    const run = inTerminal(
      ['time', 'customer-update', '--from-csv', renames(), '-o', 'csv'],
      { env: time.tokenEnv() },
      { pipeTo: 'wc -l' },
    );
    expect(await run.exitCode()).toBe(0);
    expect(run.screen()).toMatch(PROGRESS);
    expect(shown(run.screen())).toEqual([`updated ${ROWS} of ${ROWS} customers`, String(ROWS + 1)]);
    expect(posts(time)).toHaveLength(ROWS);
  });

  it('the service dying midway: waits say "connection refused", and the line is gone before the summary of failures', async () => {
    const own = { sandbox: await startTimeSandbox({ dir: mkdtempSync(join(tmpdir(), 'trident-progress-time-')) }) } as TimeHarness;
    try {
      slowRows(own, 100);
      const env = {
        TRIDENT_TIME_URL: own.sandbox.url,
        TRIDENT_CA_FILE: own.sandbox.caFile!,
        TRIDENT_TIME_TOKEN: own.sandbox.control.issueToken('trident-cli'),
      };
      const started = performance.now();
      const run = inTerminal(
        ['--retries', '1', 'time', 'customer-update', '--from-csv', renames(), '-o', 'csv'],
        { env },
        { pipeTo: 'wc -l' },
      );
      await run.waitFor('customers: ');
      await own.sandbox.close();
      expect(await run.exitCode()).toBe(0); // wc's
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(run.screen()).toMatch(new RegExp(`connection refused: attempt 2 of 2 in ${RETRY_WAIT}`));
      const screen = shown(run.screen());
      expect(screen.join('\n')).not.toMatch(/customers: \d|attempt/);
      expect(screen[0]).toMatch(new RegExp(`^trident: updated \\d+ of ${ROWS} customers; \\d+ failed \\(lines \\d`));
      expect(screen.slice(1)).toEqual(['hint: the result of each row says why', String(ROWS + 1)]);
      expect(posts(own).length).toBeLessThan(ROWS);
    } finally {
      await own.sandbox.close();
    }
  });

  it('Ctrl-C midway: the line is gone and "interrupted" is all that is left', async () => {
    time.sandbox.server.faults.add({ method: 'POST', path: /^\/api\/v1\/customers\//, skip: 4, times: ROWS, fault: { kind: 'hang' } });
    const run = inTerminal(['time', 'customer-update', '--from-csv', renames()], { env: time.tokenEnv() });
    await run.waitFor('customers: ');
    run.press('\u0003');
    expect(await run.exitCode()).toBe(130);
    expect(shown(run.screen())).toEqual(['trident: interrupted']);
  });

  it('-q: nothing but the rows', async () => {
    slowRows(time);
    const run = inTerminal(
      ['-q', 'time', 'customer-update', '--from-csv', renames(), '-o', 'csv'],
      { env: time.tokenEnv() },
      { pipeTo: 'wc -l' },
    );
    expect(await run.exitCode()).toBe(0);
    expect(shown(run.screen())).toEqual([String(ROWS + 1)]);
  });
});

it('stderr not a terminal: the summary alone, through a retry', async () => {
  time.sandbox.server.faults.add({
    method: 'POST',
    path: `/api/v1/customers/${FIRST_ID}`,
    fault: { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
  });
  slowRows(time);
  const result = await runCli(['time', 'customer-update', '--from-csv', renames(), '-o', 'csv'], { env: time.tokenEnv() });
  expect(result.exitCode).toBe(0);
  expect(result.stderr).toBe(
    `the time service is rate limiting (429): spacing the rows that follow\nupdated ${ROWS} of ${ROWS} customers\n`,
  );
  expect(posts(time)).toHaveLength(ROWS + 1);
});
