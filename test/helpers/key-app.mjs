// A stand-in for the application a rotation switches, used as the --deploy and --verify hooks of the e2e
// tests. It keeps its exchange key (id + PEM) in <dir>/key.json and proves it works by a signed
// GET <keys url>/api_keys, exactly as a trading application would.
//
//   node key-app.mjs deploy <dir>          store the key: id from TRIDENT_DEPLOY_KEY_ID, PEM from stdin
//   node key-app.mjs verify <dir> <url>    a request signed with the stored key must answer 200
//   options: --fail-on <step,...>  exit 3 at these TRIDENT_DEPLOY_STEPs (deploy|verify|rollback), nothing changed
//            --until-repaired: only while <dir>/broken exists (an outage that ends)
//            --hang-on <step,...>  start a grandchild `sleep`, then never exit
//            --kill-trident-on <step,...>  SIGKILL trident (the hook's parent) after doing the work, once
//
// Every call appends one line to <dir>/calls.ndjson: step, key id, argv, the whole environment and `ps`, so
// that a test can check that no secret ever reached a hook other than on stdin.
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { constants, sign } from 'node:crypto';
import { join } from 'node:path';

const [mode, dir, url] = process.argv.slice(2);
const optionList = (name) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? [] : process.argv[index + 1].split(',');
};
const step = process.env.TRIDENT_DEPLOY_STEP;
const stateFile = join(dir, 'key.json');

function log(extra) {
  const ps = execFileSync('ps', ['-eo', 'pid,ppid,args'], { encoding: 'utf8' });
  const line = { mode, step, key_id: process.env.TRIDENT_DEPLOY_KEY_ID, argv: process.argv, env: process.env, ps, ...extra };
  appendFileSync(join(dir, 'calls.ndjson'), `${JSON.stringify(line)}\n`);
}

function readStdin() {
  return readFileSync(0, 'utf8');
}

/** trident: the parent of the shell that runs this (or the parent itself when the shell exec'd node). */
function tridentPid() {
  const parentComm = readFileSync(`/proc/${process.ppid}/comm`, 'utf8').trim();
  if (parentComm !== 'sh' && parentComm !== 'dash' && parentComm !== 'bash') return process.ppid;
  return Number(readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
}

async function verify() {
  const { id, pem } = JSON.parse(readFileSync(stateFile, 'utf8'));
  const target = new URL(`${url.replace(/\/+$/, '')}/api_keys`);
  const timestamp = String(Date.now());
  const signature = sign('sha256', Buffer.from(`${timestamp}GET${target.pathname}`), {
    key: pem,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }).toString('base64');
  const response = await fetch(target, {
    headers: {
      'KALSHI-ACCESS-KEY': id,
      'KALSHI-ACCESS-TIMESTAMP': timestamp,
      'KALSHI-ACCESS-SIGNATURE': signature,
      'user-agent': 'key-app',
    },
  });
  await response.arrayBuffer();
  return { id, status: response.status };
}

async function main() {
  if (optionList('--hang-on').includes(step)) {
    const sleeper = spawn('sleep', ['1000'], { stdio: 'ignore' });
    log({ hanging: true, grandchild: sleeper.pid });
    setInterval(() => undefined, 1000);
    return;
  }
  const outageOver = process.argv.includes('--until-repaired') && !existsSync(join(dir, 'broken'));
  if (optionList('--fail-on').includes(step) && !outageOver) {
    log({ failed: true });
    console.log(`key-app: ${step} fails on purpose`);
    process.exit(3);
  }
  if (mode === 'deploy') {
    const pem = readStdin();
    writeFileSync(`${stateFile}.tmp`, JSON.stringify({ id: process.env.TRIDENT_DEPLOY_KEY_ID, pem }));
    renameSync(`${stateFile}.tmp`, stateFile);
    log({ stored: process.env.TRIDENT_DEPLOY_KEY_ID });
    console.log(`key-app: now using key ${process.env.TRIDENT_DEPLOY_KEY_ID}`);
  } else {
    const { id, status } = await verify();
    log({ verified: id, status });
    console.error(`key-app: a request signed by key ${id} answered ${status}`);
    if (status !== 200) process.exit(4);
  }
  if (optionList('--kill-trident-on').includes(step) && !existsSync(join(dir, 'killed'))) {
    writeFileSync(join(dir, 'killed'), '');
    process.kill(tridentPid(), 'SIGKILL');
  }
}

await main();
