import { describe, expect, it } from 'vitest';
import { addKey, keyExists, requestsFrom, runKeys } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox();

const newKey = (name: string) => addKey(sandbox, name);
const exists = (id: string) => keyExists(sandbox, id);

describe('keys delete', () => {
  it('a batch exits with its worst failure: a missing key (5) and a failing service (8) give 8, and every key gets its result', async () => {
    const missing = newKey('gone-first');
    await runKeys(sandbox, ['delete', missing, '--yes']);
    const failing = newKey('service-fails');
    const kept = newKey('deleted-after');
    sandbox.server.faults.add({
      method: 'DELETE',
      path: `/trade-api/v2/api_keys/${failing}`,
      fault: { kind: 'status', status: 503 },
      times: 5,
    });
    const result = await runKeys(sandbox, ['delete', missing, failing, kept, '--yes', '--retries', '0', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(8);
    expect(JSON.parse(result.stdout)).toEqual([
      { api_key: missing, deleted: false, result: 'not found' },
      { api_key: failing, deleted: false, result: expect.stringContaining('503') },
      { api_key: kept, deleted: true, result: 'deleted' },
    ]);
    expect(exists(failing)).toBe(true);
    expect(exists(kept)).toBe(false);
  });

  it('deletes with --yes; a second delete exits 5, and 0 with --ignore-missing', async () => {
    const id = newKey('doomed');
    const first = await runKeys(sandbox, ['delete', id, '--yes', '-o', 'json']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual([{ api_key: id, deleted: true, result: 'deleted' }]);
    expect(exists(id)).toBe(false);

    const second = await runKeys(sandbox, ['delete', id, '--yes', '-o', 'json']);
    expect(second.exitCode).toBe(5);
    expect(second.stderr).toContain(`trident: key ${id} not found`);
    expect(second.stderr).toContain('--ignore-missing');
    expect(JSON.parse(second.stdout)).toEqual([{ api_key: id, deleted: false, result: 'not found' }]);

    const ignored = await runKeys(sandbox, ['delete', id, '--yes', '--ignore-missing', '-o', 'json']);
    expect(ignored.exitCode).toBe(0);
    expect(ignored.stderr).toContain(`key ${id} was not found (ignored: --ignore-missing)`);
    expect(JSON.parse(ignored.stdout)).toEqual([{ api_key: id, deleted: false, result: 'not found' }]);
  });

  it('needs --yes without a terminal: exit 3, nothing sent', async () => {
    const id = newKey('kept');
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['delete', id]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('confirmation needed');
    expect(result.stderr).toContain('pass --yes');
    expect(seen()).toEqual([]);
    expect(exists(id)).toBe(true);
  });

  it('reports one result per key and exits non-zero if any failed', async () => {
    const a = newKey('a');
    const b = newKey('b');
    const result = await runKeys(sandbox, ['delete', a, 'no-such-key', b, '--yes', '-o', 'json']);
    expect(result.exitCode).toBe(5);
    expect(JSON.parse(result.stdout)).toEqual([
      { api_key: a, deleted: true, result: 'deleted' },
      { api_key: 'no-such-key', deleted: false, result: 'not found' },
      { api_key: b, deleted: true, result: 'deleted' },
    ]);
    expect(exists(a) || exists(b)).toBe(false);
  });

  it('reports a refused delete with its message and exit 4', async () => {
    const id = newKey('c');
    const readOnly = sandbox.control.addKey({ name: 'reader', publicKeyPem: sandbox.bootstrap.publicKeyPem, scopes: ['read'] });
    const result = await runKeys(sandbox, ['delete', id, '--yes', '--key-id', readOnly.api_key, '-o', 'json']);
    expect(result.exitCode).toBe(4);
    expect(JSON.parse(result.stdout)).toEqual([
      { api_key: id, deleted: false, result: 'keys service answered 403: this key lacks the write scope: MISSING_SCOPE_WRITE' },
    ]);
    expect(result.stderr).toContain('hint: key');
    expect(exists(id)).toBe(true);
  });

  it('calls a 404 after a retried delete "already deleted"', async () => {
    const id = newKey('retried');
    sandbox.server.faults.add({ method: 'DELETE', path: /\/api_keys\//, fault: { kind: 'reset', afterProcessing: true } });
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['delete', id, '--yes', '-o', 'json']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ api_key: id, deleted: true, result: 'already deleted' }]);
    expect(seen().filter((r) => r.method === 'DELETE')).toHaveLength(2);
  });
});
