// The exchange as documented today: the production/demo aliases, child scopes, the 403 an upload gets below the
// higher API usage levels, and a delete of many keys that paces itself after a 429.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli.js';
import { addKey, keyFiles as keyFilesIn, requestsFrom, runKeys, startSandbox } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';

const sandbox = useKeysSandbox({ resetAfterEach: true });

/** A proxy on loopback that records where a client wanted to go and refuses to take it there. */
async function refusingProxy(): Promise<{ server: Server; url: string; targets: string[] }> {
  const targets: string[] = [];
  const server = createServer((req, res) => {
    targets.push(`${req.method} ${req.url}`);
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket) => {
    targets.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, targets };
}

describe('URL aliases', () => {
  it('--url demo and TRIDENT_KEYS_URL=production go to the documented hosts', async () => {
    const proxy = await refusingProxy();
    try {
      const credentials = { TRIDENT_KEY_ID: 'k1', TRIDENT_PRIVATE_KEY_FILE: sandbox.bootstrap.privateKeyFile, HTTPS_PROXY: proxy.url };
      const demo = await runCli(['keys', 'list', '--url', 'demo', '--retries', '0'], { env: credentials });
      expect(demo.exitCode, demo.stderr).toBe(8);
      const production = await runCli(['keys', 'list', '--retries', '0'], { env: { ...credentials, TRIDENT_KEYS_URL: 'production' } });
      expect(production.exitCode, production.stderr).toBe(8);
      expect(proxy.targets).toEqual(['CONNECT external-api.demo.kalshi.co:443', 'CONNECT external-api.kalshi.com:443']);
    } finally {
      proxy.server.close();
    }
  });

  it('a key the sandbox does not know is not blamed on the exchange environments (they are named only at their hosts)', async () => {
    const result = await runKeys(sandbox, ['list', '--key-id', 'issued-by-production']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(
      /\nhint: key issued-by-production is unknown to this service: it may have been deleted, or belong to another service; check --key-id and --url/,
    );
  });

  it('keys.url takes an alias, and config list shows what it stands for', async () => {
    const configDir = tempConfigDir();
    const set = await runCli(['config', 'set', 'keys.url', 'demo'], { configDir });
    expect(set.exitCode, set.stderr).toBe(0);
    const json = await runCli(['config', 'list', '-o', 'json'], { configDir });
    const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(rows.find((row) => row.key === 'keys.url')).toEqual({
      key: 'keys.url',
      value: 'demo',
      source: 'profile',
      origin: 'profile "default"',
      resolved: 'https://external-api.demo.kalshi.co/trade-api/v2',
    });
    expect(rows.find((row) => row.key === 'time.url')).toEqual({ key: 'time.url', value: null, source: null, origin: null });
    const table = await runCli(['config', 'list', '-o', 'table'], { configDir });
    expect(table.stdout).toMatch(/keys\.url\s*│\s*demo = https:\/\/external-api\.demo\.kalshi\.co\/trade-api\/v2\s*│\s*profile/);
    const bad = await runCli(['config', 'set', 'keys.url', 'staging'], { configDir });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe('trident: invalid URL "staging" for keys.url\nhint: give a URL, or one of production, demo\n');
  });
});

describe('child scopes', () => {
  it('are granted with or without their parent, and a key without write cannot delete', async () => {
    const configDir = tempConfigDir();
    const transfer = await runKeys(sandbox, ['create', '--name', 'mover', '--scopes', 'read,write::transfer', '-o', 'json'], { configDir });
    expect(transfer.exitCode, transfer.stderr).toBe(0);
    const made = JSON.parse(transfer.stdout);
    expect(made.scopes).toEqual(['read', 'write::transfer']);
    const alone = await runKeys(sandbox, ['generate', '--name', 'only-transfer', '--scopes', 'write::transfer', '-o', 'json'], {
      configDir,
    });
    expect(alone.exitCode, alone.stderr).toBe(0);
    const onlyTransfer = JSON.parse(alone.stdout).api_key as string;
    const granted = sandbox.control.listKeys();
    expect(granted.find((key) => key.api_key === made.api_key)?.scopes).toEqual(['read', 'write::transfer']);
    expect(granted.find((key) => key.api_key === onlyTransfer)?.scopes).toEqual(['write::transfer']);

    const seen = requestsFrom(sandbox);
    const refused = await runKeys(
      sandbox,
      ['delete', '--yes', onlyTransfer, '--key-id', made.api_key, '--private-key', made.private_key_file],
      { configDir },
    );
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toMatch(
      /^trident: keys service answered 403: this key lacks the write scope: MISSING_SCOPE_WRITE\nhint: .*may lack the write scope/,
    );
    expect(seen()).toEqual([{ method: 'DELETE', path: `/trade-api/v2/api_keys/${onlyTransfer}` }]);
    expect(sandbox.control.listKeys().some((key) => key.api_key === onlyTransfer)).toBe(true);
  });

  it('of an unknown shape are refused before any request', async () => {
    const seen = requestsFrom(sandbox);
    const result = await runKeys(sandbox, ['generate', '--name', 'x', '--scopes', 'read,admin::all']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('scopes may only be read, write and child scopes <parent>::<child> such as write::transfer');
    expect(seen()).toEqual([]);
  });
});

describe('a 403 on an upload', () => {
  const usageLevel = {
    kind: 'status',
    status: 403,
    body: {
      error: {
        code: 'forbidden',
        message: 'insufficient API usage level',
        details: 'uploading a public key requires the Premier or Market Maker level',
      },
    },
  } as const;

  it('quotes the service and points at keys generate, not at scopes or subaccounts', async () => {
    for (const args of [
      ['--name', 'laptop'],
      ['--name', 'hsm', '--public-key', sandbox.bootstrap.privateKeyFile],
    ]) {
      const configDir = tempConfigDir();
      sandbox.server.faults.add({ method: 'POST', path: '/trade-api/v2/api_keys', fault: usageLevel });
      const before = sandbox.control.listKeys().length;
      const result = await runKeys(sandbox, ['create', '-q', ...args], { configDir });
      expect(result.exitCode).toBe(4);
      const [message, hint, ...rest] = result.stderr.split('\n');
      expect(message).toBe(
        'trident: keys service answered 403: insufficient API usage level: uploading a public key requires the Premier or Market Maker level',
      );
      expect(hint).toMatch(/^hint: .*higher API usage levels \(Premier, Market Maker\); trident keys generate works at every level/);
      expect(hint).not.toMatch(/scope|subaccount|subtrader/);
      expect(rest.join('')).toBe('');
      expect(sandbox.control.listKeys()).toHaveLength(before);
      expect(keyFilesIn(configDir)).toEqual([]);
    }
  });

  it('of another call keeps the permission hint', async () => {
    sandbox.server.faults.add({ method: 'POST', path: '/trade-api/v2/api_keys/generate', fault: usageLevel });
    const result = await runKeys(sandbox, ['generate', '--name', 'g']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toMatch(/\nhint: .*may lack the write scope/);
  });
});

describe('keys delete of many keys under a rate limit', () => {
  it('waits before the next delete after a 429, and deletes every key', async () => {
    // Two deletes at once, then one every 500 ms; 429s carry no Retry-After, as the exchange's do.
    const limited = await startSandbox({ rateLimit: { readPerSecond: 100, writePerSecond: 2, burst: 2 } });
    try {
      const ids = Array.from({ length: 6 }, (_, i) => addKey(limited, `batch-${i}`));
      const start = limited.server.requests.length;
      const began = Date.now();
      // Enough retries that a delete refused by the bucket always gets through in the end.
      const result = await runKeys(limited, ['delete', '--yes', '--retries', '10', '-o', 'json', ...ids]);
      const elapsed = Date.now() - began;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(ids.map((id) => ({ api_key: id, deleted: true, result: 'deleted' })));
      expect(limited.control.listKeys().map((key) => key.api_key)).toEqual([limited.bootstrap.keyId]);
      expect(result.stderr).toContain('the keys service is rate limiting (429): spacing the deletes that follow\n');

      // The server's record: every attempt per key, in order. A key with more than one attempt met a 429.
      const attempts = ids.map((id) =>
        limited.server.requests.slice(start).filter((request) => request.path === `/trade-api/v2/api_keys/${id}`),
      );
      const refused = ids.map((_, i) => i).filter((i) => attempts[i]!.length > 1);
      expect(refused.length).toBeGreaterThan(0);
      for (const i of refused.filter((i) => i < ids.length - 1)) {
        const gap = attempts[i + 1]![0]!.at - attempts[i]!.at(-1)!.at;
        // The first wait after a 429 is at least half of 500 ms.
        expect(gap, `key ${i}: next delete after ${gap} ms`).toBeGreaterThanOrEqual(240);
      }
      // Before the first 429 nothing waits: the first two deletes go out back to back.
      expect(attempts[1]![0]!.at - attempts[0]![0]!.at).toBeLessThan(2000);
      expect(elapsed).toBeLessThan(30_000);
    } finally {
      await limited.close();
    }
  }, 60_000);
});
