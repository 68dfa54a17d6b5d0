// Dependency-free baseline for `trident catalog count -o json`: one GET /products/count with node:http,
// printing the same JSON (the count and the store and region filters, none here). Reads CATALOG_URL.
const { request } = require('node:http');

request(new URL(`${process.env.CATALOG_URL}/products/count`), (response) => {
  const chunks = [];
  response.on('data', (chunk) => chunks.push(chunk));
  response.on('end', () => {
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks)}`);
    const { products_count } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    process.stdout.write(`${JSON.stringify({ products_count, stores: null, regions: null }, null, 2)}\n`);
  });
}).end();
