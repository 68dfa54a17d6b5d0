// Dependency-free baseline for `trident catalog products --all -o ndjson`: every page of 100 with node:http
// over one kept-alive connection, one after another, each product printed as a JSON line as its page
// arrives (the same output). Reads CATALOG_URL.
const { Agent, get } = require('node:http');
const { writeSync } = require('node:fs');

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function page(offset) {
  return new Promise((resolve, reject) => {
    get(new URL(`${process.env.CATALOG_URL}/products?limit=100&offset=${offset}`), { agent }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks)}`));
        else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
      response.on('error', reject);
    }).on('error', reject);
  });
}

(async () => {
  for (let offset = 0; ; offset += 100) {
    const { items, meta } = await page(offset);
    let text = '';
    for (const item of items) text += `${JSON.stringify(item)}\n`;
    writeSync(1, text);
    if (items.length === 0 || offset + items.length >= meta.total) break;
  }
  agent.destroy();
})();
