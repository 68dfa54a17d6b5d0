// The trident command line of one run of a schedule.
import { join } from 'node:path';
import type { Client } from './clients.js';
import type { Command, Interruption } from './schedule.js';

export interface RunContext {
  client: Client;
  /** Names this run's --out file. */
  label: string;
  /** The step has a late fault: requests give up after 1 s and are not repeated. */
  impatient: boolean;
  interruption?: Interruption;
}

const JSON_OUT = ['-o', 'json'];

function rotateArgs(command: Extract<Command, { verb: 'rotate' }>, run: RunContext): string[] {
  const args = ['rotate', '--yes', ...JSON_OUT];
  if (command.name !== undefined) args.push('--name', command.name);
  if (command.local) args.push('--local');
  if (command.keepOld) args.push('--keep-old');
  if (command.keepOldFor !== undefined) args.push('--keep-old-for', command.keepOldFor);
  const app = run.client.app;
  if (app) {
    const killOn = run.interruption?.kind === 'in-hook' ? { killTridentOn: [run.interruption.step] } : undefined;
    args.push('--deploy', app.deploy(killOn), '--verify', app.verify(killOn));
  }
  return args;
}

function keysArgs(command: Command, run: RunContext): string[] {
  switch (command.verb) {
    case 'generate':
    case 'create':
      return [
        command.verb,
        '--name',
        command.name,
        ...(command.out ? ['--out', join(run.client.outDir, `${run.label}.pem`)] : []),
        ...JSON_OUT,
      ];
    case 'rotate':
      return rotateArgs(command, run);
    case 'resume':
    case 'abort':
      return ['rotate', `--${command.verb}`, '--yes', ...JSON_OUT];
    case 'prune':
      return ['prune', ...JSON_OUT];
    case 'move':
      return [`move-to-${command.to}`, ...JSON_OUT];
    case 'audit':
    case 'list':
      return [command.verb, ...JSON_OUT];
    case 'reuse':
    case 'share':
    case 'delete-claimed':
    case 'force-delete':
    case 'use':
    case 'unset':
    case 'setup':
      throw new Error(`${command.verb} names a key the runner reads from the client's disk when it starts`);
  }
}

export function tridentArgs(command: Command, run: RunContext): string[] {
  return [...(run.impatient ? ['--timeout', '1', '--retries', '0'] : []), 'keys', ...keysArgs(command, run)];
}
