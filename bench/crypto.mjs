// In-process comparisons for the key work trident does itself: local RSA-2048 generation (keys create)
// against crypto.generateKeyPairSync alone, and request signing against crypto.sign alone.
// trident's own modules are bundled from src/ with esbuild so that exactly the shipped code is measured.
import { constants, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT } from './sandbox.mjs';
import { stats } from './lib.mjs';

async function loadTridentModules() {
  const outdir = mkdtempSync(join(tmpdir(), 'trident-bench-crypto-'));
  await build({
    entryPoints: { keypair: join(ROOT, 'src/keys/mint/keypair.ts'), signing: join(ROOT, 'src/keys/signing.ts') },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  return { keypair: await import(join(outdir, 'keypair.js')), signing: await import(join(outdir, 'signing.js')) };
}

// The same keypair module, but its node:crypto hands out one pair made beforehand: what is left of its time
// is trident's own work around the call, without the random prime search that both sides share.
const FIXED_PAIR = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
globalThis.__tridentBenchFixedPair = FIXED_PAIR;
const fixedPair = () => globalThis.__tridentBenchFixedPair;

async function loadKeypairWithFixedPair() {
  const outdir = mkdtempSync(join(tmpdir(), 'trident-bench-crypto-fixed-'));
  await build({
    entryPoints: { keypair: join(ROOT, 'src/keys/mint/keypair.ts') },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
    plugins: [
      {
        name: 'fixed-pair-crypto',
        setup(b) {
          b.onResolve({ filter: /^node:crypto$/ }, () => ({ path: 'crypto', namespace: 'fixed-pair' }));
          b.onLoad({ filter: /.*/, namespace: 'fixed-pair' }, () => ({
            contents:
              "export { createPrivateKey, createPublicKey } from 'crypto'; export const generateKeyPairSync = () => globalThis.__tridentBenchFixedPair;",
            resolveDir: ROOT,
          }));
        },
      },
    ],
  });
  return import(join(outdir, 'keypair.js'));
}

const elapsed = async (fn) => {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
};

export async function cryptoComparisons({ keygenRuns = 40, signRuns = 2000 } = {}) {
  const { keypair, signing } = await loadTridentModules();
  // RSA prime search time varies a lot from key to key: many interleaved runs, medians compared.
  const ours = [];
  const bare = [];
  for (let i = 0; i < keygenRuns; i += 1) {
    ours.push(await elapsed(() => keypair.generateRsaKeyPair(2048)));
    bare.push(
      await elapsed(() =>
        generateKeyPairSync('rsa', {
          modulusLength: 2048,
          publicKeyEncoding: { type: 'spki', format: 'pem' },
          privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
        }),
      ),
    );
  }

  // trident's own work around generateKeyPairSync, measured against handing out the same fixed pair directly.
  const fixed = await loadKeypairWithFixedPair();
  const aroundOurs = [];
  const aroundBare = [];
  for (let i = 0; i < 20_000; i += 1) {
    aroundOurs.push(await elapsed(() => fixed.generateRsaKeyPair(2048)));
    aroundBare.push(await elapsed(() => fixedPair()));
  }

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = createPrivateKey(privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const signer = { keyId: 'bench', privateKey: key, source: 'bench' };
  const url = new URL('https://example.test/trade-api/v2/api_keys?limit=5');
  const message = Buffer.from(`1703123456789GET/trade-api/v2/api_keys`);
  const signOurs = [];
  const signBare = [];
  for (let i = 0; i < signRuns; i += 1) {
    signOurs.push(await elapsed(() => signing.signedHeaders(signer, 'GET', url, Date.now())));
    signBare.push(
      await elapsed(() =>
        sign('sha256', message, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }),
      ),
    );
  }
  const result = (name, target, a, b) => {
    const s = stats(a);
    const t = stats(b);
    return { name, target, subject: s, baseline: t, ratio: s.median / t.median };
  };
  const around = result('trident around the call (the key pair handed out ready-made)', '—', aroundOurs, aroundBare);
  const keygenBare = stats(bare).median;
  const overheadMs = around.subject.median - around.baseline.median;
  return [
    result('RSA-2048 generation (keys create) vs crypto.generateKeyPairSync', '≤ 1.1x (noisy: a random prime search)', ours, bare),
    {
      ...around,
      target: `≤ 1.1x: ${(1 + Math.max(0, overheadMs) / keygenBare).toFixed(4)}x of a median key generation`,
      ratio: around.subject.median / around.baseline.median,
    },
    result('request signing (signedHeaders) vs crypto.sign', 'negligible', signOurs, signBare),
  ];
}
