import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();

function csvFile(content: string): string {
  const dir = tempConfigDir();
  const path = join(dir, '..', 'customers.csv');
  writeFileSync(path, content);
  return path;
}

const customerName = (id: number) => time.sandbox.control.customers().find((c) => c.id === id)?.name;
const customerPosts = (from: number) =>
  time.sandbox.server.requests.slice(from).filter((r) => r.method === 'POST' && r.path.startsWith('/api/v1/customers/'));

describe('time customer-update', () => {
  it('renames one customer', async () => {
    const result = await runCli(['time', 'customer-update', '4', '--name', 'Café Zürich AG', '-o', 'json'], { env: time.tokenEnv() });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: 4, name: 'Café Zürich AG' });
    expect(customerName(4)).toBe('Café Zürich AG');
  });

  it('renames many from a CSV with a BOM, CRLF, quotes and commas, one result per row', async () => {
    const file = csvFile('\ufeffname,id\r\n"Müller, ""Söhne"" & Co",3\r\n"ООО ""Ромашка"", Москва",5\r\nSmith & Jones,7\r\n');
    const before = time.sandbox.server.requests.length;
    const result = await runCli(['time', 'customer-update', '--from-csv', file, '-o', 'json'], { env: time.tokenEnv() });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([
      { line: 2, id: 3, name: 'Müller, "Söhne" & Co', ok: true, error: null },
      { line: 3, id: 5, name: 'ООО "Ромашка", Москва', ok: true, error: null },
      { line: 4, id: 7, name: 'Smith & Jones', ok: true, error: null },
    ]);
    expect(result.stderr).toBe('updated 3 of 3 customers\n');
    expect(customerName(3)).toBe('Müller, "Söhne" & Co');
    expect(customerName(5)).toBe('ООО "Ромашка", Москва');
    expect(customerPosts(before)).toHaveLength(3);
  });

  it("reports failing rows, keeps going, exits with the worst row's code and summarizes on stderr", async () => {
    // Names the service would refuse (empty, over 255 characters) are refused before anything is sent; a
    // refusal for another reason comes from the service.
    time.sandbox.server.faults.add({
      method: 'POST',
      path: '/api/v1/customers/4',
      fault: { kind: 'status', status: 400, body: { status: 400, message: 'name is already taken' } },
    });
    const file = csvFile(`id,name\n3,Fine name\n999,Nobody\n4,Taken name\n7,"Smith, Jones"\n`);
    const result = await runCli(['time', 'customer-update', '--from-csv', file, '-o', 'csv'], { env: time.tokenEnv() });
    expect(result.exitCode).toBe(6);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('line,id,name,ok,error');
    expect(lines.slice(1)).toEqual([
      '2,3,Fine name,true,',
      '3,999,Nobody,false,time service answered 404: Customer not found',
      '4,4,Taken name,false,time service answered 400: name is already taken',
      '5,7,"Smith, Jones",true,',
    ]);
    expect(result.stderr).toBe(
      `trident: updated 2 of 4 customers; 2 failed (lines 3, 4 of ${file})\nhint: the result of each row says why\n`,
    );
    expect(customerName(7)).toBe('Smith, Jones');
  });

  it('--skip-invalid sends the valid rows and reports the others by their line; without it nothing is sent', async () => {
    const file = csvFile(`id,name\n3,Valid one\nx,Bad id\n\n"5","Two\nlines"\n5,Again\n7,Valid two\n`);
    const before = time.sandbox.server.requests.length;
    const strict = await runCli(['time', 'customer-update', '--from-csv', file], { env: time.tokenEnv() });
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toBe(
      `trident: ${file} line 3: id "x" is not a positive whole number; nothing was sent\nhint: also line 7: customer 5 appears again (first on line 5)\n`,
    );
    expect(customerPosts(before)).toHaveLength(0);

    const skipping = await runCli(['time', 'customer-update', '--from-csv', file, '--skip-invalid', '-o', 'json'], {
      env: time.tokenEnv(),
    });
    expect(skipping.exitCode).toBe(2);
    expect(JSON.parse(skipping.stdout)).toEqual([
      { line: 2, id: 3, name: 'Valid one', ok: true, error: null },
      { line: 3, id: null, name: null, ok: false, error: 'not sent: id "x" is not a positive whole number' },
      { line: 5, id: 5, name: 'Two\nlines', ok: true, error: null },
      { line: 7, id: null, name: null, ok: false, error: 'not sent: customer 5 appears again (first on line 5)' },
      { line: 8, id: 7, name: 'Valid two', ok: true, error: null },
    ]);
    expect(skipping.stderr).toBe(
      [
        `warning: ${file} line 3: id "x" is not a positive whole number: not sent (--skip-invalid)`,
        `warning: ${file} line 7: customer 5 appears again (first on line 5): not sent (--skip-invalid)`,
        `trident: updated 3 of 5 customers; 2 failed (lines 3, 7 of ${file})`,
        'hint: the result of each row says why',
        '',
      ].join('\n'),
    );
    expect(customerPosts(before).map((request) => request.path)).toEqual([
      '/api/v1/customers/3',
      '/api/v1/customers/5',
      '/api/v1/customers/7',
    ]);
    expect(customerName(7)).toBe('Valid two');

    const alone = await runCli(['time', 'customer-update', '3', '--name', 'x', '--skip-invalid'], { env: time.tokenEnv() });
    expect(alone.exitCode).toBe(2);
    expect(alone.stderr).toMatch(/^trident: --skip-invalid skips the invalid rows of a --from-csv file\n/);
  });

  it('repeats a POST only where it is safe: after a 429, never after a 503', async () => {
    time.sandbox.server.faults.add({
      method: 'POST',
      path: '/api/v1/customers/4',
      fault: { kind: 'status', status: 429, headers: { 'retry-after': '0' }, body: { status: 429, message: 'slow down' } },
    });
    time.sandbox.server.faults.add({
      method: 'POST',
      path: '/api/v1/customers/5',
      fault: { kind: 'status', status: 503, body: { status: 503, message: 'maintenance' } },
    });
    const before = time.sandbox.server.requests.length;
    const result = await runCli(['time', 'customer-update', '--from-csv', '-', '--concurrency', '1', '-o', 'ndjson'], {
      env: time.tokenEnv(),
      input: 'id,name\n4,After 429\n5,After 503\n',
    });
    expect(result.exitCode).toBe(8);
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { line: 2, id: 4, name: 'After 429', ok: true, error: null },
      // A 5xx to a POST may come after the service acted: the row's outcome is unknown.
      {
        line: 3,
        id: 5,
        name: 'After 503',
        ok: false,
        error: 'time service answered 503: maintenance; the request was sent, so its outcome is unknown',
      },
    ]);
    expect(customerPosts(before).map((r) => r.path)).toEqual(['/api/v1/customers/4', '/api/v1/customers/4', '/api/v1/customers/5']);
    expect(customerName(4)).toBe('After 429');
  });

  it('checks the whole file before sending anything (exit 2, naming the line)', async () => {
    const cases: Array<[string, string]> = [
      ['id,title\n3,a\n', 'line 1: the header must be exactly the columns id and name'],
      ['id,name\n3,ok\n4,fine\nabc,bad\n', 'line 4: id "abc" is not a positive whole number'],
      ['id,name\n3,ok\n4,""\n', 'line 3: the name of customer 4 is empty'],
      ['id,name\n3,ok\n3,again\n', 'line 3: customer 3 appears again (first on line 2)'],
    ];
    const before = time.sandbox.server.requests.length;
    for (const [content, message] of cases) {
      const result = await runCli(['time', 'customer-update', '--from-csv', csvFile(content)], { env: time.tokenEnv() });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
    }
    expect(time.sandbox.server.requests.length).toBe(before);
  });

  it('refuses mixed or missing arguments (exit 2)', async () => {
    const env = time.tokenEnv();
    expect((await runCli(['time', 'customer-update', '3'], { env })).exitCode).toBe(2);
    expect((await runCli(['time', 'customer-update', '--name', 'x'], { env })).exitCode).toBe(2);
    expect((await runCli(['time', 'customer-update', '3', '--name', 'x', '--from-csv', '-'], { env, input: 'id,name\n' })).exitCode).toBe(
      2,
    );
    expect(
      (await runCli(['time', 'customer-update', '--from-csv', '-', '--concurrency', '0'], { env, input: 'id,name\n3,a\n' })).exitCode,
    ).toBe(2);
  });
});
