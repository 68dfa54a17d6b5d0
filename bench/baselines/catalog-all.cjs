// Dependency-free baselines for `trident catalog products --all -o ndjson`: every page of 100 with node:http, each
// product printed as a JSON line as its page arrives (the same output). Reads CATALOG_URL.
// `node catalog-all.cjs`: one page after another over one kept-alive connection.
// `node catalog-all.cjs 2`: the next 2 pages asked for while one is written, as trident does: the floor for a Node
// client. node:http cannot pipeline, so each page in flight has a kept-alive connection of its own; the service
// serves them in the order they come.
const { Agent, get } = require('node:http');
const { writeSync } = require('node:fs');

const AHEAD = Number(process.argv[2] ?? 0);
const agent = new Agent({ keepAlive: true, maxSockets: Math.max(1, AHEAD) });

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
  const ahead = [page(0)];
  let next = 100;
  const ask = () => {
    ahead.push(page(next));
    next += 100;
  };
  while (ahead.length > 0) {
    const { items, meta } = await ahead.shift();
    const more = () => items.length > 0 && next < meta.total;
    while (ahead.length < AHEAD && more()) ask();
    let text = '';
    for (const item of items) text += `${JSON.stringify(item)}\n`;
    writeSync(1, text);
    if (ahead.length === 0 && more()) ask();
  }
  agent.destroy();
})();
