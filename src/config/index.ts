import type { Command } from 'commander';
import { examples, type Binder } from '../command.js';
import * as get from './commands/get.js';
import * as list from './commands/list.js';
import * as path from './commands/path.js';
import * as profiles from './commands/profiles.js';
import * as set from './commands/set.js';
import * as unset from './commands/unset.js';

export function register(group: Command, bind: Binder): void {
  for (const command of [set, get, unset, list, profiles, path]) command.register(group, bind);
  examples(group, [
    'trident config set keys.url https://api.example.com/trade-api/v2',
    'trident --profile staging config set catalog.url https://catalog.staging.example.com',
    'trident config list            # every value and where it came from',
    'trident --profile sandbox config get catalog.url',
  ]);
}
