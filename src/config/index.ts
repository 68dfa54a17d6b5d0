import type { Command } from 'commander';
import { examples, type Binder } from '../command.js';
import * as get from './commands/get.js';
import * as list from './commands/list.js';
import * as path from './commands/path.js';
import * as profiles from './commands/profiles.js';
import * as set from './commands/set.js';
import * as unset from './commands/unset.js';

const TRUST_HELP = `
Environment:
  TRIDENT_CONFIG_DIR        where settings, tokens and keys live
  TRIDENT_PROFILE           the profile, as --profile
  TRIDENT_INSECURE_CONFIG   1: accept a config dir, settings, token or key file that
                            other users can write or that belongs to another user
                            (refused by default, as ssh does; so are symlinked
                            settings.json and stored tokens)`;

export function register(group: Command, bind: Binder): void {
  for (const command of [set, get, unset, list, profiles, path]) command.register(group, bind);
  group.addHelpText('after', TRUST_HELP);
  examples(group, [
    'trident config set keys.url https://api.example.com/trade-api/v2',
    'trident --profile staging config set catalog.url https://catalog.staging.example.com',
    'trident config list            # every value and where it came from',
    'trident --profile sandbox config get catalog.url',
  ]);
}
