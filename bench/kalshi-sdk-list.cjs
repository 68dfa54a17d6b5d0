// Baseline for `trident keys list -o json`: the exchange's official TypeScript SDK listing keys.
const { Configuration, ApiKeysApi } = require('kalshi-typescript');

const configuration = new Configuration({
  apiKey: process.env.KEY_ID,
  privateKeyPath: process.env.KEY_FILE,
  basePath: process.env.KEYS_URL,
});
new ApiKeysApi(configuration)
  .getApiKeys()
  .then((response) => process.stdout.write(`${JSON.stringify(response.data.api_keys)}\n`))
  .catch((error) => {
    console.error(error.response?.status, error.response?.data ?? error.message);
    process.exitCode = 1;
  });
