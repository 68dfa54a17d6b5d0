import type { Command } from 'commander';
import { examples, type Binder } from '../command.js';
import * as customerUpdate from './commands/customer-update.js';
import * as login from './commands/login.js';
import * as logout from './commands/logout.js';
import * as projects from './commands/projects.js';
import * as report from './commands/report.js';

const CONNECTION_HELP = `
Connection:
  URL    --url, TRIDENT_TIME_URL, or the profile's time.url (https only: the token never travels in clear text)
  token  TRIDENT_TIME_TOKEN, else --token-file <file>, else the one stored by "trident time login"
         in <config dir>/tokens/<profile>.json (mode 0600; no OS keyring is available here, the file is the store)
  The User-Agent is time.userAgent (default "trident-cli"); the service destroys a token used from another one.
  time.authScheme sends the token as "Authorization: Bearer <token>" (bearer, the default), "Authorization:
  <token>" (raw) or "x-api-token: <token>" (x-api-token).
`;

export function register(group: Command, bind: Binder): void {
  for (const command of [login, logout, projects, customerUpdate, report]) command.register(group, bind);
  examples(group, [
    'printf %s "$TIME_PASSWORD" | trident time login --email you@example.com --password-stdin',
    'trident time projects --status all',
    'trident time customer-update --from-csv renames.csv -o json',
    'trident time report --from 2026-11-02 --to 2026-11-06 -o csv     # experimental',
  ]);
  group.addHelpText('after', CONNECTION_HELP);
}
