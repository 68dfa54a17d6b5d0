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
    entryPoints: { keypair: join(ROOT, 'src/keys/keypair.ts'), signing: join(ROOT, 'src/keys/signing.ts') },
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  return { keypair: await import(join(outdir, 'keypair.js')), signing: await import(join(outdir, 'signing.js')) };
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
        generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } }),
      ),
    );
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
    signBare.push(await elapsed(() => sign('sha256', message, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST })));
  }
  const result = (name, target, a, b) => {
    const s = stats(a);
    const t = stats(b);
    return { name, target, subject: s, baseline: t, ratio: s.median / t.median };
  };
  return [
    result('RSA-2048 generation (keys create) vs crypto.generateKeyPairSync', '≤ 1.1x', ours, bare),
    result('request signing (signedHeaders) vs crypto.sign', 'negligible', signOurs, signBare),
  ];
}
