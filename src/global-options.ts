// The options of `trident` itself, which every command takes before or after its name: declared once here,
// their type (GlobalOptions) inferred from the declaration.
import { Option, type Command } from '@commander-js/extra-typings';
import { once } from './command.js';

export function withGlobalOptions(program: Command) {
  return program
    .addOption(new Option('--profile <name>', 'settings profile (env TRIDENT_PROFILE, default "default")'))
    .addOption(
      new Option('-o, --output <format>', 'output format (env TRIDENT_OUTPUT; table on a terminal, tsv when piped)').choices([
        'table',
        'json',
        'ndjson',
        'csv',
        'tsv',
      ]),
    )
    .option('--json', 'same as -o json')
    .option('--jq <expression>', 'filter the JSON output with a jq expression; strings print raw, one result a line', once('--jq'))
    .option('--columns <names>', "the fields of every format, in that order: as json names them, or the table's labels")
    .option('--no-header', 'no header line in table, csv and tsv output')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('-q, --quiet', 'nothing on stderr but errors, nothing on stdout when there was nothing to do')
    .option('--debug', 'log requests and responses to stderr, secrets redacted (env TRIDENT_DEBUG=1)')
    .option(
      '--timeout <seconds>',
      'deadline for each attempt of a request, from connecting to the last byte of the answer (env TRIDENT_TIMEOUT, default 30)',
    )
    .option('--retries <n>', 'retries of requests that are safe to repeat (default 3)')
    .option('--ca-file <path>', 'extra CA certificates, added to the system roots (env TRIDENT_CA_FILE)')
    .option('-y, --yes', 'confirm destructive actions without a prompt')
    .option('--no-input', 'never prompt (also when CI is set)');
}

/** As parsed; a context made without a command line (tests, the sandbox) may leave any of them out. */
export type GlobalOptions = Partial<ReturnType<ReturnType<typeof withGlobalOptions>['opts']>>;
