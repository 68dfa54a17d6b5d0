import type { Command } from 'commander';
import { examples, type Binder } from '../command.js';
import * as create from './commands/create.js';
import * as del from './commands/delete.js';
import * as generate from './commands/generate.js';
import * as list from './commands/list.js';
import * as rotate from './commands/rotate.js';

export function register(group: Command, bind: Binder): void {
  for (const command of [list, create, generate, del, rotate]) command.register(group, bind);
  examples(group, [
    'trident keys list',
    'trident keys create --name ci-reader --scopes read     # pair made here, private half stored 0600',
    'trident keys generate --name deploy --use',
    'trident keys rotate --yes -o json',
  ]);
}
