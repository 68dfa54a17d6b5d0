// The states an earlier release leaves in a config dir that a later one must take over: each case drives that
// release's binary against its own keys sandbox and returns the keys the test must know by role.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The service acts this long after the request; the client gives up after 1 s (its answer is lost). */
const LATE = { kind: 'delay', ms: 2500 };
const IMPATIENT = ['--timeout', '1', '--retries', '0'];

/** The key the tests know a minted key by: its id on the service, found by the tagged name the record sent. */
const keyNamed = (work, sentName) => work.sandbox.control.listKeys().find((key) => key.name === sentName)?.api_key;

function onlyPendingRecord(work) {
  const dir = join(work.configDir, 'pending');
  const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  if (names.length !== 1) throw new Error(`expected one pending record, found ${names.join(', ') || 'none'}`);
  return JSON.parse(readFileSync(join(dir, names[0]), 'utf8'));
}

const journalOf = (work, keyId) => JSON.parse(readFileSync(join(work.configDir, 'rotations', `key-${keyId}.json`), 'utf8'));

/** A rotation of the profile's key, killed (SIGKILL) at the release's checkpoint `point`. */
function rotationKilledAt(point, flags = []) {
  return async (work) => {
    const old = await work.profileKey('service-key');
    await work.killedAt(point, ['keys', 'rotate', '--yes', '-o', 'json', ...flags]);
    const journal = journalOf(work, old);
    const minted = journal.new_key?.api_key ?? keyNamed(work, JSON.parse(readFileSync(journal.pending, 'utf8')).sent_name);
    return { old, minted, phase: journal.phase };
  };
}

/** A keys generate or create whose answer was lost: the service made the key after the client gave up. */
function answerLost(verb, path) {
  return async (work) => {
    await work.profileKey('service-key');
    work.sandbox.server.faults.add({ method: 'POST', path: `/trade-api/v2${path}`, fault: LATE });
    await work.run(['keys', verb, '--name', `lost-${verb}`, ...IMPATIENT], { allowFailure: true });
    await work.sandbox.server.idle();
    const record = onlyPendingRecord(work);
    return { minted: keyNamed(work, record.sent_name), sent_name: record.sent_name };
  };
}

/** A keys generate killed at `point`, with its private key asked for at `--out`. */
function generateKilledAt(point) {
  return async (work) => {
    await work.profileKey('service-key');
    await work.killedAt(point, ['keys', 'generate', '--name', `killed-${point}`, '--out', join(work.outDir, 'generated.pem')]);
    const record = onlyPendingRecord(work);
    return { minted: keyNamed(work, record.sent_name) ?? null, sent_name: record.sent_name, out: record.target_file };
  };
}

/**
 * Old keys kept by rotations (--keep-old-for) at every stage of their prune: one pruned (its record gone, its
 * .pruned note left), one whose prune was killed after noting the delete and before sending it, one due, one not
 * due, and the key in use. key-ages.json records each key the release made.
 */
async function overlaps(work) {
  const pruned = await work.profileKey('service-key');
  const keepBriefly = ['keys', 'rotate', '--yes', '--keep-old-for', '0.001m', '-o', 'json'];
  await work.run(keepBriefly);
  await work.settle(100);
  await work.run(['keys', 'prune', '-o', 'json']);
  const dueA = work.profileKeyId();
  await work.run(keepBriefly);
  const dueB = work.profileKeyId();
  await work.run(keepBriefly);
  await work.settle(100);
  await work.killedAt('prune-deleting', ['keys', 'prune', '-o', 'json']);
  const notDue = work.profileKeyId();
  await work.run(['keys', 'rotate', '--yes', '--keep-old-for', '3650d', '-o', 'json']);
  await work.run(['keys', 'list', '-o', 'json']);
  const deleting = [dueA, dueB].find(
    (id) => 'deleting_since' in JSON.parse(readFileSync(join(work.configDir, 'overlap', `${id}.json`), 'utf8')),
  );
  if (!deleting) throw new Error('the killed prune noted no delete');
  return { pruned, deleting, due: deleting === dueA ? dueB : dueA, not_due: notDue, in_use: work.profileKeyId() };
}

/** A rotation killed with the profile switched, its keys in the keyring under the names that release gave them. */
async function keyringRotationKilledSwitched(work) {
  await work.useKeyring();
  return rotationKilledAt('switched')(work);
}

export const CASES = {
  'rotation-killed-minting': rotationKilledAt('answered'),
  'rotation-killed-switched': rotationKilledAt('switched'),
  'rotation-local-killed-minting': rotationKilledAt('answered', ['--local']),
  'rotation-killed-deleting-old': rotationKilledAt('deleting-old'),
  'rotation-keep-old-for-killed-verified': rotationKilledAt('verified', ['--keep-old-for', '7d']),
  'keyring-rotation-killed-switched': keyringRotationKilledSwitched,
  'generate-answer-lost': answerLost('generate', '/api_keys/generate'),
  'create-answer-lost': answerLost('create', '/api_keys'),
  'generate-killed-stored': generateKilledAt('stored'),
  'generate-killed-before-sending': generateKilledAt('pending'),
  overlaps,
};
