import { commandGroup } from '../subcommands.js';

const COMMANDS = [
  { name: 'set', load: () => import('./commands/set.js') },
  { name: 'get', load: () => import('./commands/get.js') },
  { name: 'unset', load: () => import('./commands/unset.js') },
  { name: 'list', load: () => import('./commands/list.js') },
  { name: 'profiles', load: () => import('./commands/profiles.js') },
  { name: 'use', load: () => import('./commands/use.js') },
  { name: 'path', load: () => import('./commands/path.js') },
];

const TRUST_HELP = `
Environment:
  TRIDENT_CONFIG_DIR        where settings, tokens and keys live (an absolute path)
  TRIDENT_PROFILE           the profile, as --profile (else the one config use chose)
  TRIDENT_INSECURE_CONFIG   1: accept a config dir, settings, token or key file that
                            other users can write or that belongs to another user
                            (refused by default, as ssh does; so are symlinked
                            settings.json and stored tokens)`;

export const { register } = commandGroup(COMMANDS, {
  before: TRUST_HELP,
  examples: [
    'trident config set keys.url https://api.example.com/trade-api/v2',
    'trident --profile staging config set catalog.url https://catalog.staging.example.com',
    'trident config list            # every value and where it came from',
    'trident --profile sandbox config get catalog.url',
  ],
});
