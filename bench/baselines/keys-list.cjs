// Dependency-free baseline for `trident keys list -o json`: the same signed GET /api_keys with node:http and
// crypto.sign (RSA-PSS, SHA-256, salt = digest length, over `timestamp + GET + path`), printing the same JSON:
// each key with in_use (it signs this request) and age_seconds (from the service's created_ts).
// Reads KEYS_URL, KEY_ID and KEY_FILE from the environment.
const { constants, createPrivateKey, sign } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { request } = require('node:http');

const url = new URL(`${process.env.KEYS_URL}/api_keys`);
const keyId = process.env.KEY_ID;
const key = createPrivateKey(readFileSync(process.env.KEY_FILE));
const timestamp = String(Date.now());
const signature = sign('sha256', Buffer.from(`${timestamp}GET${url.pathname}`), {
  key,
  padding: constants.RSA_PKCS1_PSS_PADDING,
  saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
}).toString('base64');

const headers = { 'KALSHI-ACCESS-KEY': keyId, 'KALSHI-ACCESS-TIMESTAMP': timestamp, 'KALSHI-ACCESS-SIGNATURE': signature };
request(url, { headers }, (response) => {
  const chunks = [];
  response.on('data', (chunk) => chunks.push(chunk));
  response.on('end', () => {
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks)}`);
    const now = Date.now();
    const keys = JSON.parse(Buffer.concat(chunks).toString('utf8')).api_keys.map((apiKey) => ({
      ...apiKey,
      in_use: apiKey.api_key === keyId,
      age_seconds: apiKey.created_ts ? Math.floor((now - Date.parse(apiKey.created_ts)) / 1000) : null,
    }));
    process.stdout.write(keys.length ? `[\n  ${keys.map((k) => JSON.stringify(k)).join(',\n  ')}\n]\n` : '[]\n');
  });
}).end();
