// Answers nested 10,000 levels deep (about 20 KB of brackets): valid JSON that JSON.parse takes, but that
// anything printing it recursively overflows on. Every service, every output format, --jq and `trident api`
// end in exit 8 naming the service, at once, after the one request that brought the answer.
import { describe, it } from 'vitest';
import type { Fault } from '../../src/sandbox/http/faults.js';
import { runFaultCase } from './fault-case.js';
import type { Kind } from './harness.js';

const LEVELS = 10_000;
const arrays = `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`;
const objects = `${'{"a":'.repeat(LEVELS)}1${'}'.repeat(LEVELS)}`;

interface Service {
  kind: Kind;
  name: string;
  /** The command that lists, and the one request it sends. */
  args: string[];
  request: string;
  /** `trident api` for the same route. */
  api: string[];
  /** The deep answer, in the shape the route's answer would have around it. */
  payload: string;
}

const SERVICES: Service[] = [
  {
    kind: 'keys',
    name: 'keys service',
    args: ['keys', 'list'],
    request: 'GET /trade-api/v2/api_keys',
    api: ['api', 'keys', '/api_keys'],
    payload: `{"api_keys":${arrays}}`,
  },
  {
    kind: 'time',
    name: 'time service',
    args: ['time', 'projects'],
    request: 'GET /api/v1/projects',
    api: ['api', 'time', '/projects'],
    payload: `{"data":[${objects}]}`,
  },
  {
    kind: 'catalog',
    name: 'catalog service',
    args: ['catalog', 'products'],
    request: 'GET /products',
    api: ['api', 'catalog', '/products'],
    payload: `{"items":[${arrays}],"meta":{"limit":20,"offset":0,"total":1}}`,
  },
];

const OUTPUTS = [
  ['-o', 'table'],
  ['-o', 'json'],
  ['-o', 'ndjson'],
  ['-o', 'csv'],
  ['-o', 'tsv'],
  ['--jq', '.'],
];

const cases = SERVICES.flatMap((service) => [
  ...OUTPUTS.map((output) => ({ service, args: [...service.args, ...output], label: `${service.args.join(' ')} ${output.join(' ')}` })),
  { service, args: service.api, label: service.api.join(' ') },
  { service, args: [...service.api, '--jq', '.'], label: `${service.api.join(' ')} --jq .` },
]);

describe.concurrent('an answer nested 10,000 levels deep', () => {
  it.each(cases)('$label: exit 8 naming the service, bounded, one request', async ({ service, args }) => {
    const fault: Fault = { kind: 'body', payload: service.payload };
    await runFaultCase(service.kind, {
      name: args.join(' '),
      faults: [{ method: 'GET', path: service.request.split(' ')[1], fault }],
      args,
      exit: 8,
      message: new RegExp(`^${service.name} sent an answer nested too deeply \\(more than 256 levels\\)$`),
      hint: new RegExp(`^no real answer is nested that deep: check that the URL points at the ${service.name}; --debug shows the answer$`),
      sent: [service.request],
      maxMs: 10_000,
    });
  });
});

describe.concurrent('an error answer nested 10,000 levels deep', () => {
  it("a 404 whose body nests FastAPI's detail list 10,000 levels deep: exit 5 as any 404, the message says why it has no text", async () => {
    await runFaultCase('catalog', {
      name: 'deep 404',
      faults: [{ method: 'GET', path: '/products/p-1', fault: { kind: 'body', status: 404, payload: `{"detail":[${objects}]}` } }],
      args: ['catalog', 'product', 'p-1'],
      exit: 5,
      message: /^catalog service answered 404: an answer nested too deeply$/,
      sent: ['GET /products/p-1'],
      maxMs: 10_000,
    });
  });
});
