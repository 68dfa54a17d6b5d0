// --jq end to end: gh's printing, the expression checked before any request, what a streamed list gives jq,
// and the README's example (a rotation in CI picking the new key's id without jq installed).
import { existsSync } from 'node:fs';
import { untagged } from '../../src/keys/mint/tag.js';
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';
import { envFor, errorOf, requestsFrom, trident, useServices, withServices } from '../reliability/harness.js';

const services = useServices(['keys', 'catalog']);

describe('--jq', () => {
  it('prints string results raw, one a line, and other results as compact JSON', async () => {
    const sent = requestsFrom(services.keys.server);
    const result = await trident(['keys', 'list', '--jq', '.[] | .name, {scopes}'], { env: envFor.keys(services) });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      services.keys.control
        .listKeys()
        .map((key) => `${key.name}\n{"scopes":${JSON.stringify(key.scopes)}}\n`)
        .join(''),
    );
    expect(sent()).toEqual(['GET /trade-api/v2/api_keys']);
  });

  it('filters the record of a write: keys generate --jq .api_key prints the new id alone', async () => {
    const result = await trident(['keys', 'generate', '--name', 'jq-made', '--jq', '.api_key'], { env: envFor.keys(services) });
    expect(result.exitCode, result.stderr).toBe(0);
    const made = services.keys.control.listKeys().find((key) => untagged(key.name) === 'jq-made');
    expect(result.stdout).toBe(`${made!.api_key}\n`);
    expect(existsSync(`${result.configDir}/keys/${made!.api_key}.pem`)).toBe(true);
  });

  it('a bad expression exits 2 before any request: a write sends nothing', async () => {
    const sent = requestsFrom(services.keys.server);
    const keys = services.keys.control.listKeys().length;
    for (const expression of ['.[', '.a | nosuch', '{']) {
      const result = await trident(['keys', 'generate', '--name', 'never', '--jq', expression], { env: envFor.keys(services) });
      expect(result.exitCode, result.stderr).toBe(2);
      expect(errorOf(result).message).toMatch(/^invalid --jq expression: \S/);
    }
    const twice = await trident(['keys', 'generate', '--name', 'never', '--jq', '.a', '--jq', '.b'], { env: envFor.keys(services) });
    expect(twice.exitCode).toBe(2);
    expect(errorOf(twice).message).toBe('--jq given twice (".a", then ".b"): this command takes one');
    expect(sent()).toEqual([]);
    expect(services.keys.control.listKeys()).toHaveLength(keys);
  });

  it('is a usage error with -o csv (nothing sent), and overrides TRIDENT_OUTPUT', async () => {
    const sent = requestsFrom(services.keys.server);
    const refused = await trident(['keys', 'list', '-o', 'csv', '--jq', '.'], { env: envFor.keys(services) });
    expect(refused.exitCode).toBe(2);
    expect(errorOf(refused)).toEqual({
      message: '--jq filters JSON output: it cannot be used with -o csv',
      hint: 'leave out -o (--jq implies -o json)',
    });
    expect(sent()).toEqual([]);
    const viaEnv = await trident(['keys', 'list', '--jq', 'length'], { env: { ...envFor.keys(services), TRIDENT_OUTPUT: 'csv' } });
    expect(viaEnv).toMatchObject({ exitCode: 0, stdout: `${services.keys.control.listKeys().length}\n` });
  });

  it('sees a streamed list (--all) as the one array -o json prints', async () => {
    const all = await trident(['catalog', 'products', '--all', '-o', 'json'], { env: envFor.catalog(services) });
    expect(all.exitCode, all.stderr).toBe(0);
    const items = JSON.parse(all.stdout) as Array<{ canonical_product_id: string }>;
    const result = await trident(['catalog', 'products', '--all', '--jq', 'length, .[-1].canonical_product_id'], {
      env: envFor.catalog(services),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${items.length}\n${items.at(-1)!.canonical_product_id}\n`);
  });

  it("an expression that fails on the output exits 2 with jq's message on one line", async () => {
    const result = await trident(['keys', 'list', '--jq', '.[] | .name | tonumber'], { env: envFor.keys(services) });
    expect(result.exitCode).toBe(2);
    expect(errorOf(result).message).toMatch(/^--jq failed on the output: string \(".*"\) cannot be parsed as a number$/);
  });

  it("the README's example: keys rotate --yes --json --jq .new_key.api_key prints the new key's id", async () => {
    await withServices(['keys'], async (own) => {
      const old = own.keys.bootstrap.keyId;
      const result = await trident(['keys', 'rotate', '--yes', '--json', '--jq', '.new_key.api_key'], { env: envFor.keys(own) });
      expect(result.exitCode, result.stderr).toBe(0);
      const ids = own.keys.control.listKeys().map((key) => key.api_key);
      expect(ids).not.toContain(old);
      expect(ids).toHaveLength(1);
      expect(result.stdout).toBe(`${ids[0]}\n`);
    });
  });
});

describe('--jq programs that never end or outgrow the engine', () => {
  /** Waits, bounded, until `sent` shows a request: the answer then goes to jq. */
  async function requested(sent: () => string[]): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (sent().length === 0) {
      if (Date.now() > deadline) throw new Error('no request within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  // Sent at once (the program runs on the main thread, for its first 250 ms) and later (it runs in a worker).
  for (const [signal, line] of [
    ['SIGTERM', 'trident: interrupted (SIGTERM)\n'],
    ['SIGINT', 'trident: interrupted\n'],
  ] as const) {
    for (const delay of [0, 100, 1000]) {
      it(`${signal} ${delay} ms into an endless program ends it: exit 130 and one line, at once`, async () => {
        const sent = requestsFrom(services.catalog.server);
        // Bounded: a trident that ignores the signal is killed after 10 s and fails the exit code below.
        const child = spawnCli(['catalog', 'products', '--jq', 'until(false; .)'], { env: envFor.catalog(services), timeoutMs: 10_000 });
        await requested(sent);
        await new Promise((resolve) => setTimeout(resolve, delay));
        child.kill(signal);
        const result = await child;
        // The program never ends: 130 is trident ending it on the signal, the 10 s kill leaves no exit code.
        expect(result.exitCode, String(result.stderr)).toBe(130);
        expect(String(result.stderr)).toBe(line);
        expect(String(result.stdout)).toBe('');
      });
    }
  }

  it('a program that outlasts its time on the main thread still gives its result', async () => {
    const result = await trident(['catalog', 'products', '--jq', 'now as $t | until(now - $t > 0.5; .) | .items | length'], {
      env: envFor.catalog(services),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^[1-9]\d*\n$/);
    expect(result.ms).toBeLessThan(15_000);
  });

  it("a program that exhausts the engine's memory or stack exits 2 with one line naming --jq", async () => {
    // A string doubled, endless recursion, a huge array, and nesting deeper than the engine's stack.
    for (const program of [
      'reduce range(40) as $i ("x"; . + .)',
      'def f: [f]; f',
      '[range(1e9)]',
      'reduce range(100000) as $x (null; [.])',
    ]) {
      const result = await trident(['catalog', 'products', '--jq', program], { env: envFor.catalog(services), timeoutMs: 30_000 });
      expect(result.exitCode, `${program}: ${result.stderr}`).toBe(2);
      expect(errorOf(result)).toEqual({
        message: '--jq could not run this program: the jq engine ran out of memory',
        hint: 'a program that builds ever larger or deeper values cannot finish: keep less of the input, e.g. with first(...), limit(n; ...) or select(...)',
      });
      expect(result.ms).toBeLessThan(15_000);
    }
  });
});
