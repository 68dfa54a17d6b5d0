// The commands' run() with a fake terminal and a mocked service: what a person at a TTY sees.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../../src/core/term/prompt.js';
import * as login from '../../../src/time/commands/login.js';
import * as projectDelete from '../../../src/time/commands/project-delete.js';
import { tokenPath } from '../../../src/wire/time/token-file.js';
import { BASE_URL, fakeContext, mockHttp, mockService, recordingReply } from './fixtures.js';

function terminal(answers: string[], confirmAnswer = true): Prompter & { asked: Array<{ question: string; hidden: boolean }> } {
  const asked: Array<{ question: string; hidden: boolean }> = [];
  return {
    interactive: true,
    asked,
    async ask(question, options) {
      asked.push({ question, hidden: Boolean(options?.hidden) });
      return answers.shift() ?? '';
    },
    async confirm(question) {
      asked.push({ question, hidden: false });
      return confirmAnswer;
    },
  };
}

function withService(env: NodeJS.ProcessEnv = {}) {
  const fake = fakeContext({ TRIDENT_TIME_URL: BASE_URL.href, ...env });
  const service = mockService();
  fake.ctx.http = async (options) => mockHttp(service.agent, options.userAgent);
  return { ...fake, ...service };
}

describe('time login on a terminal', () => {
  it('asks for the email and the hidden password, and stores the token 0600 without printing it', async () => {
    const { ctx, pool, sent, configDir, stdout, stderr } = withService();
    const prompter = terminal(['demo@example.com', 's3cret']);
    ctx.prompter = prompter;
    pool.intercept({ path: '/api/v1/auth', method: 'POST' }).reply(recordingReply(sent, 200, { token: 'tok-xyz', account_id: '1' }));
    pool.intercept({ path: '/api/v1/projects', method: 'GET' }).reply(recordingReply(sent, 200, { data: [] }));
    await login.run(ctx, {});
    expect(prompter.asked).toEqual([
      { question: 'Email: ', hidden: false },
      { question: 'Password: ', hidden: true },
    ]);
    expect(Object.fromEntries(new URLSearchParams(sent[0]!.body))).toEqual({ email: 'demo@example.com', password: 's3cret' });
    const path = tokenPath(configDir, 'default');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      token: 'tok-xyz',
      userAgent: 'trident-cli',
      email: 'demo@example.com',
      accountId: '1',
    });
    expect(stdout() + stderr()).not.toContain('tok-xyz');
  });

  it('reads the password from stdin with --password-stdin, dropping the final newline only', async () => {
    const fake = fakeContext({ TRIDENT_TIME_URL: BASE_URL.href }, {}, 'pass word \n');
    const service = mockService();
    fake.ctx.http = async (options) => mockHttp(service.agent, options.userAgent);
    service.pool
      .intercept({ path: '/api/v1/auth', method: 'POST' })
      .reply(recordingReply(service.sent, 200, { token: 't', account_id: 1 }));
    service.pool.intercept({ path: '/api/v1/projects', method: 'GET' }).reply(recordingReply(service.sent, 200, { data: [] }));
    await login.run(fake.ctx, { email: 'demo@example.com', passwordStdin: true, accountId: '1' });
    expect(new URLSearchParams(service.sent[0]!.body).get('password')).toBe('pass word ');
    expect(new URLSearchParams(service.sent[0]!.body).get('account_id')).toBe('1');
  });
});

describe('time projects delete on a terminal', () => {
  it('sends nothing when the answer is no (exit 3)', async () => {
    const { ctx, sent } = withService({ TRIDENT_TIME_TOKEN: 'tok' });
    ctx.prompter = terminal([], false);
    await expect(projectDelete.run(ctx, {}, '61')).rejects.toMatchObject({ exitCode: 3 });
    expect(sent).toHaveLength(0);
  });

  it('deletes after a yes', async () => {
    const { ctx, pool, sent, stdout } = withService({ TRIDENT_TIME_TOKEN: 'tok' });
    const prompter = terminal([], true);
    ctx.prompter = prompter;
    pool.intercept({ path: '/api/v1/projects/61', method: 'DELETE' }).reply(recordingReply(sent, 200, ''));
    await projectDelete.run(ctx, {}, '61');
    expect(prompter.asked[0]!.question).toContain('Delete project 61?');
    expect(JSON.parse(stdout())).toEqual({ id: 61, deleted: true, already_deleted: false });
  });
});
