// The product's promise, checked after a schedule against the sandbox's own record and the clients' disks:
// no key on the service that nobody holds, no client deleting another client's key, reports that are true,
// and a profile (and application) left on a working key.
import { claimsOf, type Claim } from './claims.js';
import { isForceDelete, leftWithDeletedKey } from './force-deletes.js';
import { Lineage } from './lineage.js';
import type { Observation, ProcessRecord } from './observation.js';

export const INVARIANTS = {
  a: "after the settle every key on the service is held by its client: its private half at a place a profile, record, journal, report or trident's own store names",
  b: 'no client deletes a key of another client',
  c: 'what a report says is true',
  d: "after the final settle every profile (and the application) uses a key that exists, its private half in the profile's file, or a keys delete --force named it as left with the key it deleted, or the harness unset it and its re-bind was refused with a reason",
  e: 'a key a profile or record names is never deleted: keys delete without --force refuses it',
  settle: 'the final settle leaves no rotation journal',
  harness: 'every process ends within its time bound',
} as const;

export type Invariant = keyof typeof INVARIANTS;

export interface Violation {
  invariant: Invariant;
  message: string;
  keys: string[];
}

function everyKeyHeld(observation: Observation, lineage: Lineage): Violation[] {
  const violations: Violation[] = [];
  for (const id of observation.alive) {
    if (id === observation.bootstrapKeyId) continue;
    const owner = lineage.owner(id);
    const pem = observation.publicKeys[id];
    if (owner === undefined) {
      violations.push({ invariant: 'a', message: `${lineage.describe(id)} was made by no client's key`, keys: [id] });
      continue;
    }
    if (pem !== undefined && observation.clients[owner]!.held.includes(pem)) continue;
    // A key made after the settle for a request the client's ledger still has pending (a late key): the ledger
    // names it, and the next keys command settles it.
    if (observation.clients[owner]!.pendingRequests.includes(lineage.name(id) ?? '')) continue;
    const elsewhere = observation.clients
      .filter((client) => client.index !== owner && pem !== undefined && client.held.includes(pem))
      .map((client) => `client ${client.index}`);
    violations.push({
      invariant: 'a',
      message: `${lineage.describe(id)} is on the service, but client ${owner} holds no private half of it (${elsewhere.length > 0 ? `only ${elsewhere.join(', ')} does` : 'nobody does'}) after the settle`,
      keys: [id],
    });
  }
  return violations;
}

/** The processes that were running when event `index` happened. */
function runningAt(observation: Observation, index: number, client: number | undefined): string[] {
  return observation.processes
    .filter((record) => record.client === client && record.eventsAtStart <= index && index < record.eventsAtExit)
    .map((record) => record.label);
}

function noForeignDeletes(observation: Observation, lineage: Lineage): Violation[] {
  const violations: Violation[] = [];
  observation.events.forEach((event, index) => {
    if (event.type !== 'delete') return;
    const owner = lineage.owner(event.id);
    const by = lineage.owner(event.signer);
    if (owner === undefined || owner === by) return;
    const during = runningAt(observation, index, by);
    violations.push({
      invariant: 'b',
      message: `client ${by ?? '?'} (signed by key ${event.signer}${during.length > 0 ? `, during ${during.join(' or ')}` : ''}) deleted ${lineage.describe(event.id)}`,
      keys: [event.id, event.signer],
    });
  });
  return violations;
}

/**
 * A `keys delete` without --force that deleted anything: it was asked for a key a profile names. Not when a change
 * of that profile by the same client (keys setup, config set/unset) succeeded while the delete ran: the ledger may
 * have looked after the profile had moved on.
 */
function noClaimedDeletes(observation: Observation): Violation[] {
  const rebound = (record: ProcessRecord) =>
    observation.processes.some(
      (other) =>
        other.client === record.client &&
        other.finished.exitCode === 0 &&
        changesProfile(other, 'ci') &&
        other.startedMs < record.endedMs &&
        record.startedMs < other.endedMs,
    );
  return observation.processes
    .filter((record) => record.argv.includes('delete') && !isForceDelete(record) && record.eventsAtExit > record.eventsAtStart)
    .filter((record) => !rebound(record))
    .flatMap((record) => {
      const deleted = observation.events
        .slice(record.eventsAtStart, record.eventsAtExit)
        .filter((event) => event.type === 'delete' && record.argv.includes(event.id))
        .map((event) => event.id);
      return deleted.map((id): Violation => ({
        invariant: 'e',
        message: `${record.label} (client ${record.client}) deleted key ${id}, which its profile "ci" named when it started`,
        keys: [id],
      }));
    });
}

/** Other processes of the same client that ran at the same time: its profile at exit is theirs too. */
const overlapped = (observation: Observation, record: ProcessRecord) =>
  observation.processes.some(
    (other) => other !== record && other.client === record.client && other.startedMs < record.endedMs && record.startedMs < other.endedMs,
  );

function falseClaim(observation: Observation, lineage: Lineage, record: ProcessRecord, claim: Claim): string | undefined {
  const { id } = claim;
  switch (claim.kind) {
    case 'made': {
      if (!lineage.existedAfter(id, record.eventsAtExit))
        return `reported it made ${lineage.describe(id)}, which did not exist when it ended`;
      const deletion = lineage.deletion(id);
      if (deletion && deletion.by !== record.client)
        return `reported it made ${lineage.describe(id)}, which client ${deletion.by ?? '?'} deleted later`;
      if (!deletion && !lineage.aliveAtEnd(id)) return `reported it made ${lineage.describe(id)}, which is gone`;
      if (claim.file !== undefined && record.reportedFiles[claim.file] !== observation.publicKeys[id])
        return `reported the private half of ${lineage.describe(id)} in ${claim.file}, which did not hold it when it ended`;
      return undefined;
    }
    case 'exists':
      return lineage.existedAfter(id, record.eventsAtExit)
        ? undefined
        : `${claim.why}, but ${lineage.describe(id)} did not exist when it ended`;
    case 'deleted':
      return lineage.aliveAtEnd(id) ? `${claim.why}, but ${lineage.describe(id)} still exists` : undefined;
    case 'profile': {
      if (overlapped(observation, record)) return undefined;
      const profile = record.profileAtExit;
      if (profile.keyId !== id)
        return `${claim.why} to ${lineage.describe(id)}, but the profile used key ${profile.keyId ?? '(none)'} when it ended`;
      if (profile.filePublicKey === undefined || profile.filePublicKey !== observation.publicKeys[id])
        return `${claim.why}, but the profile's file ${profile.privateKeyFile ?? '(none)'} did not hold ${lineage.describe(id)} when it ended`;
      return undefined;
    }
  }
}

function reportsTrue(observation: Observation, lineage: Lineage): Violation[] {
  const violations: Violation[] = [];
  for (const record of observation.processes) {
    for (const claim of claimsOf(record)) {
      const wrong = falseClaim(observation, lineage, record, claim);
      if (wrong) violations.push({ invariant: 'c', message: `${record.label} (client ${record.client}) ${wrong}`, keys: [claim.id] });
    }
  }
  return violations;
}

/** A `config set`/`unset` or `keys setup` of `profile` (no --profile: the default). */
function changesProfile({ argv }: ProcessRecord, profile: string): boolean {
  const at = argv.indexOf('--profile');
  const verb = argv.findIndex((arg) => arg === 'config' || arg === 'keys');
  const what = verb < 0 ? '' : argv.slice(verb, verb + 2).join(' ');
  return (at < 0 ? 'default' : argv[at + 1]) === profile && ['config set', 'config unset', 'keys setup'].includes(what);
}

/**
 * Told why a profile has no key: its last change that succeeded was the harness's `config unset` of each setting it
 * lacks, and every change after it a setup or set refused with a reason (exit 2, a "trident: " line).
 */
function refusedRebind(observation: Observation, client: number, name: string, missing: string[]): boolean {
  const runs = observation.processes
    .filter((record) => record.client === client && changesProfile(record, name))
    .sort((x, y) => x.startedMs - y.startedMs);
  const last = runs.findLastIndex((record) => record.finished.exitCode === 0);
  const unset = runs[last]?.argv ?? [];
  const after = runs.slice(last + 1);
  return (
    unset.includes('unset') &&
    missing.every((setting) => unset.includes(setting)) &&
    after.length > 0 &&
    after.every(({ argv, finished }) => !argv.includes('unset') && finished.exitCode === 2 && /^trident: \S/m.test(finished.stderr))
  );
}

function workingKeyAfterSettle(observation: Observation, lineage: Lineage): Violation[] {
  const violations: Violation[] = [];
  for (const client of observation.clients) {
    const problem = (message: string, ...keys: string[]) =>
      violations.push({ invariant: 'd', message: `client ${client.index}: ${message}`, keys });
    for (const [name, { keyId, filePublicKey, privateKeyFile }] of Object.entries(client.profiles)) {
      const missing = [...(keyId === undefined ? ['keys.keyId'] : []), ...(privateKeyFile === undefined ? ['keys.privateKeyFile'] : [])];
      if (missing.length > 0 && refusedRebind(observation, client.index, name, missing)) continue;
      if (keyId === undefined) {
        problem(`profile "${name}" names no key`);
        continue;
      }
      if (!lineage.aliveAtEnd(keyId)) {
        // Told why: a --force delete of the client's deleted this key and named this profile as left with it.
        if (!leftWithDeletedKey(observation, client.index, name, keyId))
          problem(`profile "${name}" uses ${lineage.describe(keyId)}, which does not exist`, keyId);
      } else if (filePublicKey !== observation.publicKeys[keyId])
        problem(`profile "${name}"'s file ${privateKeyFile ?? '(none)'} does not hold ${lineage.describe(keyId)}`, keyId);
    }
    const { keyId } = client.profile;
    if (!client.app || keyId === undefined) continue;
    if (client.app.keyId !== keyId)
      problem(
        `the application uses ${lineage.describe(client.app.keyId)}, the profile ${lineage.describe(keyId)}`,
        client.app.keyId,
        keyId,
      );
    else if (client.app.publicKey !== observation.publicKeys[keyId])
      problem(`the application's private key is not that of ${lineage.describe(keyId)}`, keyId);
  }
  return violations;
}

export function checkInvariants(observation: Observation): Violation[] {
  const lineage = new Lineage(observation);
  return [
    ...observation.harness.map((message): Violation => ({ invariant: 'harness', message, keys: [] })),
    ...observation.clients
      .filter((client) => client.journalsLeft.length > 0)
      .map((client): Violation => ({
        invariant: 'settle',
        message: `client ${client.index} still has ${client.journalsLeft.join(', ')}`,
        keys: [],
      })),
    ...everyKeyHeld(observation, lineage),
    ...noForeignDeletes(observation, lineage),
    ...noClaimedDeletes(observation),
    ...reportsTrue(observation, lineage),
    ...workingKeyAfterSettle(observation, lineage),
  ];
}
