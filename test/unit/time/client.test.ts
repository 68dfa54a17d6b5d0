import { describe, expect, it } from 'vitest';
import { TimeClient, authorizationHeader, type AuthScheme } from '../../../src/time/client.js';
import { BASE_URL, mockHttp, mockService, recordingReply } from './fixtures.js';

function client(token: string | undefined, authScheme: AuthScheme = 'bearer') {
  const service = mockService();
  return { ...service, client: new TimeClient({ http: mockHttp(service.agent), baseUrl: BASE_URL, token, authScheme }) };
}

const PROJECT = { id: 57, name: 'Website relaunch', active: 1, status: 'active', date_changed: '2019-03-01T07:00:00-0300' };

describe('TimeClient', () => {
  it('authorization header: Bearer by default, the bare token with raw', () => {
    expect(authorizationHeader('abc')).toBe('Bearer abc');
    expect(authorizationHeader('abc', 'bearer')).toBe('Bearer abc');
    expect(authorizationHeader('abc', 'raw')).toBe('abc');
  });

  it('sends the token as Bearer, the stable User-Agent and asks for JSON', async () => {
    const { client: time, pool, sent } = client('tok-1');
    pool.intercept({ path: '/api/v1/projects', method: 'GET' }).reply(recordingReply(sent, 200, { data: [PROJECT] }));
    const projects = await time.listProjects();
    expect(projects[0]).toMatchObject({ id: 57, active: true, date_updated: '2019-03-01T07:00:00-03:00' });
    expect(sent[0]!.headers).toMatchObject({ authorization: 'Bearer tok-1', 'user-agent': 'trident-cli', accept: 'application/json' });
  });

  it('sends the bare token with the raw scheme', async () => {
    const { client: time, pool, sent } = client('tok-2', 'raw');
    pool.intercept({ path: '/api/v1/projects/57', method: 'GET' }).reply(recordingReply(sent, 200, { data: PROJECT }));
    await time.getProject(57);
    expect(sent[0]!.headers.authorization).toBe('tok-2');
  });

  it('sends the token in x-api-token, and no Authorization, with the x-api-token scheme', async () => {
    const { client: time, pool, sent } = client('tok-3', 'x-api-token');
    pool.intercept({ path: '/api/v1/projects/57', method: 'GET' }).reply(recordingReply(sent, 200, { data: PROJECT }));
    await time.getProject(57);
    expect(sent[0]!.headers['x-api-token']).toBe('tok-3');
    expect(sent[0]!.headers.authorization).toBeUndefined();
  });

  it('form-encodes bodies, with non-ASCII and reserved characters intact', async () => {
    const { client: time, pool, sent } = client('tok');
    pool
      .intercept({ path: '/api/v1/customers/3', method: 'POST' })
      .reply(recordingReply(sent, 200, { data: { id: '3', name: 'Müller & Söhne' } }));
    expect(await time.updateCustomer(3, 'Müller & Söhne')).toEqual({ id: 3, name: 'Müller & Söhne' });
    expect(sent[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(sent[0]!.body).get('name')).toBe('Müller & Söhne');
  });

  it('logs in without a token and returns the new one', async () => {
    const { client: time, pool, sent } = client(undefined);
    pool.intercept({ path: '/api/v1/auth', method: 'POST' }).reply(recordingReply(sent, 200, { token: 'new-token', account_id: 1 }));
    expect(await time.login({ email: 'a@b.c', password: 'p&w=1', accountId: '1' })).toEqual({ token: 'new-token', accountId: '1' });
    expect(sent[0]!.headers.authorization).toBeUndefined();
    expect(Object.fromEntries(new URLSearchParams(sent[0]!.body))).toEqual({ email: 'a@b.c', password: 'p&w=1', account_id: '1' });
  });

  it('quotes the service message of a {"status","message"} error and maps the status', async () => {
    const { client: time, pool, sent } = client('tok');
    pool
      .intercept({ path: '/api/v1/projects', method: 'POST' })
      .reply(recordingReply(sent, 400, { status: 400, message: 'name must not be empty' }));
    await expect(time.createProject({ name: ' ' })).rejects.toMatchObject({
      exitCode: 6,
      message: 'time service answered 400: name must not be empty',
    });
    expect(sent).toHaveLength(1);
  });

  it('a 401 exits 4 with a hint to log in again', async () => {
    const { client: time, pool, sent } = client('tok');
    pool
      .intercept({ path: '/api/v1/projects', method: 'GET' })
      .reply(recordingReply(sent, 401, { status: 401, message: 'Invalid API token' }));
    await expect(time.listProjects()).rejects.toMatchObject({
      exitCode: 4,
      message: 'time service answered 401: Invalid API token',
      hint: expect.stringContaining('trident time login'),
    });
  });

  it('revoke: true on 200 with an empty body, false when the service no longer knows the token', async () => {
    const { client: time, pool, sent } = client('tok');
    pool.intercept({ path: '/api/v1/auth/revoke', method: 'GET' }).reply(recordingReply(sent, 200, ''));
    pool
      .intercept({ path: '/api/v1/auth/revoke', method: 'GET' })
      .reply(recordingReply(sent, 401, { status: 401, message: 'Invalid API token' }));
    expect(await time.revoke()).toBe(true);
    expect(await time.revoke()).toBe(false);
  });

  it('delete: a 404 on the first try is not found; a 404 after a failed first try means already deleted', async () => {
    const { client: time, pool, sent } = client('tok');
    pool
      .intercept({ path: '/api/v1/projects/9', method: 'DELETE' })
      .reply(recordingReply(sent, 404, { status: 404, message: 'Project not found' }));
    await expect(time.deleteProject(9)).rejects.toMatchObject({ exitCode: 5, message: 'time service answered 404: Project not found' });
    pool.intercept({ path: '/api/v1/projects/8', method: 'DELETE' }).reply(recordingReply(sent, 503, { status: 503, message: 'busy' }));
    pool
      .intercept({ path: '/api/v1/projects/8', method: 'DELETE' })
      .reply(recordingReply(sent, 404, { status: 404, message: 'Project not found' }));
    expect(await time.deleteProject(8)).toEqual({ alreadyDeleted: true });
    pool.intercept({ path: '/api/v1/projects/7', method: 'DELETE' }).reply(recordingReply(sent, 200, ''));
    expect(await time.deleteProject(7)).toEqual({ alreadyDeleted: false });
  });

  it('never repeats a POST that failed with 5xx (its outcome is unknown)', async () => {
    const { client: time, pool, sent } = client('tok');
    pool
      .intercept({ path: '/api/v1/customers/4', method: 'POST' })
      .reply(recordingReply(sent, 502, { status: 502, message: 'bad gateway' }));
    await expect(time.updateCustomer(4, 'x')).rejects.toMatchObject({ exitCode: 8 });
    expect(sent).toHaveLength(1);
  });

  it('an answer of the wrong shape exits 8', async () => {
    const { client: time, pool, sent } = client('tok');
    pool.intercept({ path: '/api/v1/projects', method: 'GET' }).reply(recordingReply(sent, 200, { data: { not: 'a list' } }));
    await expect(time.listProjects()).rejects.toMatchObject({ exitCode: 8, message: expect.stringContaining('GET /projects') });
  });

  it('a login answer without a token exits 8', async () => {
    const { client: time, pool, sent } = client(undefined);
    pool.intercept({ path: '/api/v1/auth', method: 'POST' }).reply(recordingReply(sent, 200, { account_id: 1 }));
    await expect(time.login({ email: 'a@b.c', password: 'x' })).rejects.toMatchObject({ exitCode: 8 });
  });
});
