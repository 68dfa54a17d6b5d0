// Shared by the time unit tests: a Context on fake streams and a temp config dir, and an HTTP client on a
// MockAgent that records what was sent.
import { MockAgent } from 'undici';
import type { Context, GlobalOptions } from '../../../src/context.js';
import { testContext } from '../../helpers/context.js';
import { TridentError } from '../../../src/core/errors.js';
import { createHttpClient, type HttpClient } from '../../../src/core/http/client.js';

export const BASE = 'https://time.test';
export const BASE_URL = new URL(`${BASE}/api/v1`);

export interface FakeContext {
  ctx: Context;
  stdout: () => string;
  stderr: () => string;
  configDir: string;
}

export function fakeContext(env: NodeJS.ProcessEnv = {}, globals: GlobalOptions = {}, stdinText?: string): FakeContext {
  return testContext({ globals: { output: 'json', ...globals }, env, stdin: stdinText });
}

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A MockAgent that refuses real connections, and a list of every request it answered. */
export function mockService(): { agent: MockAgent; sent: Sent[]; pool: ReturnType<MockAgent['get']> } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  return { agent, sent: [], pool: agent.get(BASE) };
}

export function recordingReply(sent: Sent[], status: number, data: unknown = '') {
  return (options: { method: string; path: string; headers?: unknown; body?: unknown }) => {
    sent.push({
      method: options.method,
      path: options.path,
      headers: headerRecord(options.headers),
      body: options.body === undefined ? '' : String(options.body),
    });
    return {
      statusCode: status,
      data: typeof data === 'string' ? data : JSON.stringify(data),
      responseOptions: { headers: { 'content-type': 'application/json' } },
    };
  };
}

function headerRecord(headers: unknown): Record<string, string> {
  if (!headers) return {};
  const entries = Array.isArray(headers) ? chunkPairs(headers as string[]) : Object.entries(headers as Record<string, string>);
  return Object.fromEntries(entries.map(([name, value]) => [name.toLowerCase(), String(value)]));
}

function chunkPairs(flat: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
  return pairs;
}

export function mockHttp(agent: MockAgent, userAgent = 'trident-cli'): HttpClient {
  return createHttpClient({ serviceName: 'time service', userAgent, dispatcher: agent, sleep: async () => undefined, random: () => 0 });
}

/** The TridentError that `fn` throws or rejects with; anything else fails the test. */
export async function tridentError(fn: () => unknown): Promise<TridentError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof TridentError) return error;
    throw error;
  }
  throw new Error('expected a TridentError');
}
