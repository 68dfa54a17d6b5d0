// Bad invocations of the built CLI across every group: each exits with its documented code, says what is
// wrong in one line (and at most a hint), and sends nothing. Each case points the CLI at the sandboxes under
// a path prefix of its own, so a request it sent would be told apart by its path; a request the server
// refused unread (431 for a huge header) is caught by the connection counts at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandboxTls } from '../../src/sandbox/http/tls.js';
import { escapeControls } from '../../src/core/term/printable.js';
import { badInputs, type BadInput, type Group } from './bad-input-cases.js';
import { makeFixtures } from './bad-input-fixtures.js';
import { errorOf, tempConfigDir, trident, useServices, type Services } from './harness.js';

const services = useServices(['keys', 'time', 'catalog']);
const cases = badInputs(makeFixtures(makeSandboxTls().certPem)).map((c, index) => ({
  ...c,
  prefix: `/bad-${index}/`,
  title: `${c.group}: ${c.args.map((arg) => escapeControls(arg.length > 40 ? `${arg.slice(0, 20)}…(${arg.length} chars)` : arg)).join(' ')}`,
}));

/** Everything a command could need, every URL under the case's own prefix. */
function environment(s: Services, c: BadInput & { prefix: string }): Record<string, string> {
  const env: Record<string, string | undefined> = {
    TRIDENT_KEYS_URL: `${s.keys.server.origin}${c.prefix}trade-api/v2`,
    TRIDENT_KEY_ID: s.keys.bootstrap.keyId,
    TRIDENT_PRIVATE_KEY_FILE: s.keys.bootstrap.privateKeyFile,
    TRIDENT_TIME_URL: `${s.time.server.origin}${c.prefix}api/v1`,
    TRIDENT_CA_FILE: s.time.caFile,
    TRIDENT_TIME_TOKEN: s.time.control.issueToken('trident-cli'),
    TRIDENT_CATALOG_URL: `${s.catalog.server.origin}${c.prefix}`,
    ...c.env,
  };
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

const servers = () => [services.keys.server, services.time.server, services.catalog.server];

describe.concurrent('bad input: the documented exit code, one line, and no request', () => {
  let connectionsBefore: number[];
  beforeAll(() => {
    connectionsBefore = servers().map((server) => server.connections);
  });
  afterAll(() => {
    // Not one connection was opened by any case, not even one refused before it was read.
    expect(servers().map((server) => server.connections)).toEqual(connectionsBefore);
  });

  it.each(cases)('$title', async (c) => {
    const configDir = tempConfigDir();
    c.setup?.(configDir);
    const run = await trident(c.args, { env: environment(services, c), configDir, input: c.input });
    expect(run.exitCode, run.stderr).toBe(c.exit);
    const { message } = errorOf(run);
    expect(message).toMatch(c.message);
    expect(run.stderr.length, 'one line of sane length, however long the input').toBeLessThan(2000);
    expect(run.stderr).not.toContain('\u001b');
    const sent = servers().flatMap((server) => server.requests.filter((request) => request.path.startsWith(c.prefix)));
    expect(sent).toEqual([]);
  });
});

describe('the table of bad inputs', () => {
  it('has at least 60 cases, and some in every group', () => {
    const perGroup = new Map<Group, number>();
    for (const c of cases) perGroup.set(c.group, (perGroup.get(c.group) ?? 0) + 1);
    expect(cases.length).toBeGreaterThanOrEqual(60);
    for (const group of ['global', 'keys', 'time', 'catalog', 'config'] as const) expect(perGroup.get(group)).toBeGreaterThan(0);
  });
});
