// The report of a schedule that broke an invariant: enough to understand it without rerunning, and the
// command that replays it.
import { INVARIANTS, type Violation } from './invariants.js';
import type { Observation, ProcessRecord } from './observation.js';

const TAIL = 1500;
const tail = (text: string) => (text.length > TAIL ? `…${text.slice(-TAIL)}` : text);
const indent = (text: string, by: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');

/** A JSON report on one line (the tail then keeps most of it); any other output as it is. */
function compact(stdout: string): string {
  try {
    return JSON.stringify(JSON.parse(stdout));
  } catch {
    return stdout;
  }
}

const eventsSeen = (record: ProcessRecord) =>
  record.eventsAtExit > record.eventsAtStart
    ? `events #${record.eventsAtStart}-#${record.eventsAtExit - 1} while it ran`
    : 'no event while it ran';

export const replayCommand = (seed: number) => `npm run chaos -- --seed ${seed}`;

function ended(record: ProcessRecord): string {
  const { exitCode, signal, signalled, timedOut } = record.finished;
  const how = signal ? `killed by ${signal}` : `exit ${exitCode}`;
  const cut = record.interruption;
  const planned =
    cut === undefined
      ? ''
      : cut.kind === 'signal'
        ? `; planned ${cut.signal} to ${cut.to} after ${cut.afterMs} ms (${signalled ? 'sent' : 'it had ended'})`
        : cut.kind === 'checkpoint'
          ? `; planned crash at checkpoint "${cut.point}"`
          : `; planned kill from the ${cut.step} hook`;
  return `${how}${planned}${timedOut ? '; PAST ITS BOUND' : ''}, ${record.startedMs}-${record.endedMs} ms`;
}

export function formatReport(observation: Observation, violations: Violation[]): string {
  const { schedule, workDir } = observation;
  const shorten = (text: string) => text.replaceAll(workDir, '$WORK').replaceAll(process.execPath, 'node');
  const owner = (id: string) => observation.clients.find((client) => client.initialKeyId === id)?.index;
  const lines = [
    `chaos seed ${schedule.seed}: ${violations.length} violation${violations.length === 1 ? '' : 's'} (replay: ${replayCommand(schedule.seed)})`,
    '',
    'violations:',
    ...violations.map((violation) => `  (${violation.invariant}) ${INVARIANTS[violation.invariant]}:\n    ${violation.message}`),
    '',
    `schedule: ${JSON.stringify(schedule)}`,
    `work dir ($WORK): ${workDir}`,
    `clients' first keys: ${observation.clients.map((client) => `client ${client.index} ${client.initialKeyId}`).join(', ')}`,
    '',
    'sandbox events:',
    ...observation.events.map(
      (event, index) =>
        `  #${index} ${event.type} ${event.id} "${event.name}" signed by ${event.signer}${owner(event.signer) === undefined ? '' : ` (client ${owner(event.signer)}'s first key)`}`,
    ),
    `alive at the end: ${observation.alive.join(', ')}`,
    '',
    'processes:',
    ...[...observation.processes]
      .sort((a, b) => a.startedMs - b.startedMs)
      .map((record) =>
        [
          `  ${record.label} (client ${record.client}, ${eventsSeen(record)}): trident ${shorten(record.argv.join(' '))}`,
          `    ${ended(record)}`,
          ...(record.finished.stdout ? [`    stdout:\n${indent(shorten(tail(compact(record.finished.stdout))), '      ')}`] : []),
          ...(record.finished.stderr ? [`    stderr:\n${indent(shorten(tail(record.finished.stderr)), '      ')}`] : []),
        ].join('\n'),
      ),
  ];
  return lines.join('\n');
}

/** One line for a failing seed in a long run. */
export function summaryLine(seed: number, violations: Violation[]): string {
  const kinds = [...new Set(violations.map((violation) => `(${violation.invariant})`))].join('');
  return `seed ${seed}: ${violations.length} violation${violations.length === 1 ? '' : 's'} ${kinds}: ${violations[0]!.message}`;
}
