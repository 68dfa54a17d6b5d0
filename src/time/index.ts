import { commandGroup } from '../subcommands.js';

const COMMANDS = [
  { name: 'login', load: () => import('./commands/login.js') },
  { name: 'logout', load: () => import('./commands/logout.js') },
  { name: 'projects', load: () => import('./commands/projects.js') },
  { name: 'customer-update', load: () => import('./commands/customer-update.js') },
  { name: 'report', load: () => import('./commands/report.js') },
];

const CONNECTION_HELP = `
Connection:
  URL    --url, TRIDENT_TIME_URL, or the profile's time.url (https only: the token never travels in clear text)
  token  TRIDENT_TIME_TOKEN, else --token-file <file>, else the one stored by "trident time login"
         in <config dir>/tokens/<profile>.json (mode 0600; no OS keyring is available here, the file is the store)
  The User-Agent is time.userAgent (default "trident-cli"); the service destroys a token used from another one.
  time.authScheme sends the token as "Authorization: Bearer <token>" (bearer, the default), "Authorization:
  <token>" (raw) or "x-api-token: <token>" (x-api-token).
`;

export const { register } = commandGroup(COMMANDS, {
  examples: [
    'printf %s "$TIME_PASSWORD" | trident time login --email you@example.com --password-stdin',
    'trident time projects --status all',
    'trident time customer-update --from-csv renames.csv -o json',
    'trident time report --from 2026-11-02 --to 2026-11-06 -o csv     # experimental',
  ],
  after: CONNECTION_HELP,
});
