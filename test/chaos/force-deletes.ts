// `keys delete --force` deletes a key a profile uses, and its report must name who is left with a deleted key
// ("deleting key <id> although profile "ci" still names it (--force)", said before the delete is sent). Such a profile cannot sign after the settle, and
// was told why: the one profile the invariants excuse for it, and only for the key that run deleted.
import type { Observation, ProcessRecord } from './observation.js';

export const isForceDelete = (record: ProcessRecord): boolean => record.argv.includes('delete') && record.argv.includes('--force');

/**
 * The profiles the report of `record` named as left with key `id`, which it deleted: the service's delete of it came
 * after the run started (a late one, after a run killed once it had sent the delete, included).
 */
function profilesLeftBy(observation: Observation, record: ProcessRecord, id: string): string[] {
  if (!isForceDelete(record) || !record.argv.includes(id)) return [];
  const deletedHere = observation.events.slice(record.eventsAtStart).some((event) => event.type === 'delete' && event.id === id);
  if (!deletedHere) return [];
  const said = `${record.finished.stdout}\n${record.finished.stderr}`;
  const claims = said.split('\n').flatMap((line) => {
    const start = `deleting key ${id} although `;
    const at = line.indexOf(start);
    const end = line.search(/ still names? it \(--force\)/);
    return at < 0 || end < 0 ? [] : line.slice(at + start.length, end).split(' and ');
  });
  // A profile itself, not a rotation or a record that mentions one ("the rotation of profile "default" (…)").
  return claims.flatMap((claim) => /^profile "([^"]+)"$/.exec(claim)?.slice(1) ?? []);
}

/** Whether a `keys delete --force` of the client deleted key `id` and its report named `profile` as left with it. */
export function leftWithDeletedKey(observation: Observation, client: number, profile: string, id: string): boolean {
  return observation.processes.some((record) => record.client === client && profilesLeftBy(observation, record, id).includes(profile));
}
