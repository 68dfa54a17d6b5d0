import { commandGroup } from '../subcommands.js';

const COMMANDS = [
  { name: 'setup', load: () => import('./commands/setup.js') },
  { name: 'list', load: () => import('./commands/list.js') },
  { name: 'create', load: () => import('./commands/create.js') },
  { name: 'generate', load: () => import('./commands/generate.js') },
  { name: 'delete', load: () => import('./commands/delete.js') },
  { name: 'rotate', load: () => import('./commands/rotate.js') },
  { name: 'audit', load: () => import('./commands/audit.js') },
  { name: 'prune', load: () => import('./commands/prune.js') },
  { name: 'move-to-keyring', load: () => import('./commands/move-to-keyring.js') },
  { name: 'move-to-file', load: () => import('./commands/move-to-file.js') },
];

export const { register } = commandGroup(COMMANDS, {
  examples: [
    'trident keys list',
    'trident keys create --name ci-reader --scopes read     # pair made here, private half stored 0600',
    'trident keys generate --name deploy --use',
    'trident keys rotate --yes -o json',
  ],
});
