// The command lines of keys, time and config, parsed in-process by each command's definition (the parse seam):
// the options run gets, and the usage errors (exit 2) commander gives before run is called.
import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import * as configSet from '../../src/config/commands/set.js';
import * as keysCreate from '../../src/keys/commands/create.js';
import * as keysDelete from '../../src/keys/commands/delete.js';
import * as keysPrune from '../../src/keys/commands/prune.js';
import * as keysRotate from '../../src/keys/commands/rotate.js';
import * as projectCreate from '../../src/time/commands/project-create.js';
import * as projects from '../../src/time/commands/projects.js';
import * as customerUpdate from '../../src/time/commands/customer-update.js';
import { parseCommand, usageFailure } from '../helpers/parse-command.js';

describe('keys flags, parsed', () => {
  it('rotate: the hooks, the overlap and the age gate under their names', async () => {
    const { opts } = await parseCommand(keysRotate, [
      '--deploy',
      './d.sh',
      '--verify',
      './v.sh',
      '--keep-old-for',
      '24h',
      '--if-older-than',
      '90d',
    ]);
    expect(opts).toEqual({ deploy: './d.sh', verify: './v.sh', keepOldFor: '24h', ifOlderThan: '90d' });
  });

  it('delete: every id, in order', async () => {
    const { args, opts } = await parseCommand(keysDelete, ['k1', 'k2', '--ignore-missing']);
    expect(args).toEqual([['k1', 'k2']]);
    expect(opts).toEqual({ ignoreMissing: true });
  });

  it('prune takes --dry-run', async () => {
    expect((await parseCommand(keysPrune, ['--dry-run'])).opts).toMatchObject({ dryRun: true });
  });
});

describe('time flags, parsed', () => {
  it('projects lists the active ones unless --status says otherwise', async () => {
    expect((await parseCommand(projects, [])).opts).toEqual({ status: 'active' });
    expect((await parseCommand(projects, ['--status', 'all'])).opts).toEqual({ status: 'all' });
  });

  it('customer-update batches four at a time unless told', async () => {
    expect((await parseCommand(customerUpdate, ['--from-csv', 'c.csv'])).opts).toMatchObject({ fromCsv: 'c.csv', concurrency: '4' });
  });
});

describe('rotate: what --resume and --abort refuse', () => {
  it('names only options rotate has, each refused beside --resume and --abort', async () => {
    const command = keysRotate.definition.define(new Command('keys'));
    for (const name of keysRotate.FIXED_AT_START) {
      const option = command.options.find((candidate) => candidate.attributeName() === name);
      expect(option, `${name} is one of rotate's options`).toBeDefined();
      const given = [option!.long!, ...(option!.required ? ['x'] : [])];
      for (const action of ['--resume', '--abort'])
        expect((await usageFailure(keysRotate, [action, ...given]))?.message, `${action} ${given.join(' ')}`).toMatch(
          /cannot be used with/,
        );
    }
  });
});

describe('usage errors, before run (exit 2)', () => {
  it.each([
    [keysRotate, ['--resume', '--name', 'x'], "option '--resume' cannot be used with option '--name <name>'"],
    [keysRotate, ['--resume', '--abort'], "option '--resume' cannot be used with option '--abort'"],
    [keysRotate, ['--keep-old-for', '1h', '--keep-old'], "option '--keep-old' cannot be used with option '--keep-old-for <age>'"],
    [keysRotate, ['--resume', '--keep-old-for', '1h'], "option '--resume' cannot be used with option '--keep-old-for <age>'"],
    [
      keysCreate,
      ['--name', 'n', '--bits', '1024'],
      "option '--bits <n>' argument '1024' is invalid. Allowed choices are 2048, 3072, 4096.",
    ],
    [keysDelete, [], "missing required argument 'api_key'"],
    [projects, ['--status', 'bogus'], "option '--status <status>' argument 'bogus' is invalid. Allowed choices are active, archived, all."],
    [
      projectCreate,
      ['--name', 'x', '--privacy', 'secret'],
      "option '--privacy <privacy>' argument 'secret' is invalid. Allowed choices are public, private.",
    ],
    [projectCreate, [], "required option '--name <name>' not specified"],
    [configSet, ['output'], "missing required argument 'value'"],
  ] as const)('%#: %s', async (module, argv, message) => {
    const failure = await usageFailure(module, [...argv]);
    expect({ exitCode: failure?.exitCode, message: failure?.message }).toEqual({ exitCode: 2, message });
  });
});
