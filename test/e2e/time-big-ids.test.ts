// Ids of the time tracker past 2^53, which a double cannot hold: 9007199254740993 read as a JavaScript number
// is 9007199254740992, another project. They are printed with every digit in every format (the raw text is
// checked: JSON.parse here would round them again), taken back as arguments, and sent exactly.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useTimeSandbox } from '../helpers/time-sandbox.js';

const time = useTimeSandbox();
const PROJECT = '9007199254740993';
const CUSTOMER = '9007199254740995';
/** What each id becomes when it passes through a double. */
const ROUNDED = [String(Number(PROJECT)), String(Number(CUSTOMER))];

beforeAll(() => {
  time.sandbox.control.addCustomer({ id: BigInt(CUSTOMER), name: 'Big customer' });
  time.sandbox.control.addProject(BigInt(PROJECT), { name: 'Big project', customerId: BigInt(CUSTOMER) });
});

async function trident(args: string[], input?: string) {
  const before = time.sandbox.server.requests.length;
  const run = await runCli(args, { env: time.tokenEnv(), input });
  const sent = time.sandbox.server.requests.slice(before);
  return { ...run, sent: sent.map((request) => `${request.method} ${request.path}`), bodies: sent.map((request) => request.body) };
}

function expectExact(stdout: string): void {
  for (const rounded of ROUNDED) expect(stdout).not.toContain(rounded);
}

describe('time-tracker ids past 2^53', () => {
  it.each([
    ['json', /"id": ?9007199254740993,.*"customer_id": ?9007199254740995,/s],
    ['ndjson', /^\{"id":9007199254740993,"name":"Big project","customer_id":9007199254740995,/m],
    ['csv', /^9007199254740993,Big project,9007199254740995,Big customer,/m],
    ['tsv', /^9007199254740993\tBig project\t9007199254740995\tBig customer\t/m],
    ['table', /│ 9007199254740993 +│ Big project +│ Big customer +│/],
  ])('time projects -o %s prints them with every digit', async (format, row) => {
    const run = await trident(['time', 'projects', '-o', format]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(row);
    expectExact(run.stdout);
    expect(run.sent).toEqual(['GET /api/v1/projects']);
  });

  it('--jq sees them exact: selects by the id and prints it', async () => {
    const run = await trident(['time', 'projects', '--jq', `.[] | select(.id == ${PROJECT}) | [.id, .customer_id, .name]`]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe(`[${PROJECT},${CUSTOMER},"Big project"]\n`);
  });

  it('time projects get takes the printed id back and asks for exactly that project', async () => {
    const run = await trident(['time', 'projects', 'get', PROJECT, '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.sent).toEqual([`GET /api/v1/projects/${PROJECT}`]);
    expect(run.stdout).toMatch(new RegExp(`^\\{\\n  "id": ${PROJECT},\\n  "name": "Big project",\\n  "customer_id": ${CUSTOMER},`));
    expectExact(run.stdout);
  });

  it('time projects update sends both ids exactly (the path and --customer-id)', async () => {
    const run = await trident(['time', 'projects', 'update', PROJECT, '--customer-id', CUSTOMER, '--description', 'moved', '-o', 'ndjson']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.sent).toEqual([`POST /api/v1/projects/${PROJECT}`]);
    expect(new URLSearchParams(run.bodies[0]).get('customer_id')).toBe(CUSTOMER);
    expect(run.stdout).toMatch(new RegExp(`^\\{"id":${PROJECT},.*"customer_id":${CUSTOMER},.*"description":"moved"`));
  });

  it('time customer-update renames exactly that customer and prints its id exactly', async () => {
    const run = await trident(['time', 'customer-update', CUSTOMER, '--name', 'Bigger customer', '-o', 'json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.sent).toEqual([`POST /api/v1/customers/${CUSTOMER}`]);
    expect(run.stdout).toBe(`{\n  "id": ${CUSTOMER},\n  "name": "Bigger customer"\n}\n`);
    expect(time.sandbox.control.customers().find((customer) => customer.id === BigInt(CUSTOMER))?.name).toBe('Bigger customer');
  });

  it('time customer-update --from-csv sends and reports each id exactly', async () => {
    const run = await trident(
      ['time', 'customer-update', '--from-csv', '-', '-o', 'csv'],
      `id,name\n${CUSTOMER},Big again\n3,Müller & Söhne\n`,
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.sent.sort()).toEqual(['POST /api/v1/customers/3', `POST /api/v1/customers/${CUSTOMER}`]);
    expect(run.stdout).toBe(`line,id,name,ok,error\n2,${CUSTOMER},Big again,true,\n3,3,Müller & Söhne,true,\n`);
  });

  it('trident api time keeps them exact through --jq', async () => {
    const run = await trident(['api', 'time', `/projects/${PROJECT}`, '--jq', '.data | [.id, .customer_id]']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe(`[${PROJECT},${CUSTOMER}]\n`);
  });

  it('an id past the largest 64-bit integer is refused before anything is sent', async () => {
    const run = await trident(['time', 'projects', 'get', '9223372036854775808']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe('trident: invalid project id "9223372036854775808": expected a positive whole number\n');
    expect(run.sent).toEqual([]);
  });
});
