import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();

interface ProjectJson {
  id: number;
  name: string;
  status: string;
  [field: string]: unknown;
}

async function json<T>(args: string[], env = time.tokenEnv()): Promise<T> {
  const result = await runCli([...args, '-o', 'json'], { env });
  expect(result.stderr).not.toContain('trident:');
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as T;
}

describe('time projects', () => {
  it('lists active projects by default, archived or all on request, normalized', async () => {
    const all = await json<ProjectJson[]>(['time', 'projects', '--status', 'all']);
    const served = time.sandbox.control.projects() as Array<{ id: number; status: string }>;
    expect(all.map((p) => p.id)).toEqual(served.map((p) => p.id));
    const active = await json<ProjectJson[]>(['time', 'projects']);
    const archived = await json<ProjectJson[]>(['time', 'projects', 'list', '--status', 'archived']);
    expect(active.map((p) => p.id)).toEqual(served.filter((p) => p.status === 'active').map((p) => p.id));
    expect(archived.map((p) => p.id)).toEqual(served.filter((p) => p.status === 'archived').map((p) => p.id));
    expect(archived.length).toBeGreaterThan(0);

    for (const project of all) {
      for (const field of ['active', 'billable', 'required_task', 'template', 'is_manager']) expect(typeof project[field]).toBe('boolean');
      expect(project).not.toHaveProperty('date_changed');
      expect(project).toHaveProperty('date_updated');
      for (const field of ['date_created', 'date_updated']) {
        if (project[field] !== null) expect(project[field]).toMatch(/[+-]\d{2}:\d{2}$/);
      }
      expect(['public', 'private']).toContain(project.privacy);
      expect(project.time_total).toMatch(/^\d+:\d{2}:\d{2}$/);
      expect(typeof project.time_total_seconds).toBe('number');
    }
    const p57 = all.find((p) => p.id === 57)!;
    const p58 = all.find((p) => p.id === 58)!;
    expect(p57).toMatchObject({
      customer_name: 'Müller & Söhne',
      billable: true,
      rate: 95.5,
      time_total: '15:00:00',
      time_total_seconds: 54000,
    });
    expect(p58).toMatchObject({ date_updated: null, description: null, rate: null, privacy: 'public' });
  });

  it('prints a table with id, name, customer, status, billable and time total; tsv when piped', async () => {
    const table = await runCli(['time', 'projects', '-o', 'table'], { env: time.tokenEnv() });
    expect(table.exitCode).toBe(0);
    const header = table.stdout.split('\n').find((line) => line.includes('id'))!;
    expect(
      header
        .split('│')
        .map((cell) => cell.trim())
        .filter(Boolean),
    ).toEqual(['id', 'name', 'customer', 'status', 'billable', 'time total']);
    expect(table.stdout).toContain('東京オフィス');
    const tsv = await runCli(['time', 'projects', '--status', 'all'], { env: time.tokenEnv() });
    const [head, ...lines] = tsv.stdout.trimEnd().split('\n');
    expect(head!.split('\t')).toEqual(
      expect.arrayContaining(['id', 'name', 'customer_name', 'status', 'date_updated', 'time_total_seconds']),
    );
    expect(lines).toHaveLength(time.sandbox.control.projects().length);
  });

  it("--columns with the table's labels gives the fields in tsv: no empty column", async () => {
    const result = await runCli(['time', 'projects', '--columns', 'id,time total', '-o', 'tsv'], { env: time.tokenEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    const [head, ...lines] = result.stdout.trimEnd().split('\n');
    expect(head).toBe('id\ttime_total');
    for (const line of lines) expect(line).toMatch(/^\d+\t\d+:\d\d:\d\d$/);
  });

  it('an empty list in csv still prints the header line', async () => {
    time.sandbox.server.faults.add({
      method: 'GET',
      path: '/api/v1/projects',
      fault: { kind: 'body', status: 200, payload: '[]', contentType: 'application/json' },
    });
    const result = await runCli(['time', 'projects', '-o', 'csv'], { env: time.tokenEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      'id,name,customer_id,customer_name,description,status,active,billable,bill_by,privacy,required_task,template,rate,value_total,time_total,time_total_seconds,date_created,date_updated\n',
    );
  });

  it('help shows the list and the subcommands', async () => {
    const help = await runCli(['time', 'projects', '--help']);
    expect(help.exitCode).toBe(0);
    for (const name of ['list', 'get', 'create', 'update', 'delete']) expect(help.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    const listHelp = await runCli(['time', 'projects', 'list', '--help']);
    expect(listHelp.stdout).toContain('--status <status>');
    expect(listHelp.stdout).toContain('Examples:');
  });

  it("gets one project; a missing one exits 5 with the service's message", async () => {
    expect(await json<ProjectJson>(['time', 'projects', 'get', '59'])).toMatchObject({
      id: 59,
      name: 'Проект Альфа',
      status: 'archived',
      active: false,
    });
    const missing = await runCli(['time', 'projects', 'get', '9999'], { env: time.tokenEnv() });
    expect(missing.exitCode).toBe(5);
    expect(missing.stderr).toBe(
      'trident: time service answered 404: Project not found\nhint: check the id, and that the URL points at the right service\n',
    );
    const bad = await runCli(['time', 'projects', 'get', 'abc'], { env: time.tokenEnv() });
    expect(bad.exitCode).toBe(2);
  });

  it('creates, updates only the fields given, and deletes with --yes', async () => {
    const created = await json<ProjectJson>([
      'time',
      'projects',
      'create',
      '--name',
      'Tëst, "quoted"',
      '--customer-id',
      '7',
      '--billable',
      'true',
      '--rate',
      '80.25',
      '--privacy',
      'public',
    ]);
    expect(created).toMatchObject({
      name: 'Tëst, "quoted"',
      customer_id: 7,
      customer_name: 'Smith, Jones and Partners',
      billable: true,
      rate: 80.25,
      privacy: 'public',
      status: 'active',
    });
    const createBody = new URLSearchParams(time.sandbox.server.requests.at(-1)!.body);
    expect(Object.fromEntries(createBody)).toEqual({
      name: 'Tëst, "quoted"',
      customer_id: '7',
      billable: 'true',
      rate: '80.25',
      privacy: '1',
    });

    const updated = await json<ProjectJson>(['time', 'projects', 'update', String(created.id), '--active', 'false']);
    expect(updated).toMatchObject({ id: created.id, status: 'archived', active: false, name: 'Tëst, "quoted"', rate: 80.25 });
    expect(time.sandbox.server.requests.at(-1)!.body).toBe('active=false');

    const before = time.sandbox.server.requests.length;
    const nothing = await runCli(['time', 'projects', 'update', String(created.id)], { env: time.tokenEnv() });
    expect(nothing.exitCode).toBe(2);
    expect(nothing.stderr).toContain('nothing to update');
    expect(time.sandbox.server.requests.length).toBe(before);

    const noYes = await runCli(['time', 'projects', 'delete', String(created.id)], { env: time.tokenEnv() });
    expect(noYes.exitCode).toBe(3);
    expect(noYes.stderr).toContain('--yes');
    expect(time.sandbox.server.requests.length).toBe(before);

    expect(await json(['time', 'projects', 'delete', String(created.id), '--yes'])).toEqual({
      id: created.id,
      deleted: true,
      already_deleted: false,
    });
    expect(time.sandbox.server.requests.at(-1)!.method).toBe('DELETE');
    const gone = await runCli(['time', 'projects', 'get', String(created.id)], { env: time.tokenEnv() });
    expect(gone.exitCode).toBe(5);
    const again = await runCli(['time', 'projects', 'delete', String(created.id), '--yes'], { env: time.tokenEnv() });
    expect(again.exitCode).toBe(5);
  });

  it('create needs --name, and a value the service rejects exits 6 with its message verbatim', async () => {
    const noName = await runCli(['time', 'projects', 'create', '--billable', 'true'], { env: time.tokenEnv() });
    expect(noName.exitCode).toBe(2);
    const rejected = await runCli(['time', 'projects', 'create', '--name', 'x', '--customer-id', '999'], { env: time.tokenEnv() });
    expect(rejected.exitCode).toBe(6);
    expect(rejected.stderr).toBe('trident: time service answered 400: customer_id 999 does not exist\n');
    const badFlag = await runCli(['time', 'projects', 'create', '--name', 'x', '--active', 'perhaps'], { env: time.tokenEnv() });
    expect(badFlag.exitCode).toBe(2);
  });
});
