// Every environment variable trident reads, and those it sets for the --deploy/--verify hooks of a rotation:
// the one list `trident help environment` prints and docs/configuration.md is checked against.

export interface EnvironmentVariable {
  name: string;
  what: string;
}

export const READ: EnvironmentVariable[] = [
  { name: 'TRIDENT_CONFIG_DIR', what: 'the config dir (else $XDG_CONFIG_HOME/trident, else ~/.config/trident)' },
  { name: 'TRIDENT_PROFILE', what: 'the settings profile, as --profile (else the one `trident config use` chose, else default)' },
  { name: 'TRIDENT_OUTPUT', what: 'the output format, as -o: table, json, ndjson, csv or tsv' },
  { name: 'TRIDENT_DEBUG', what: '1: requests and answers on stderr, secrets redacted, as --debug' },
  { name: 'TRIDENT_TIMEOUT', what: 'the deadline of each attempt of a request in seconds, as --timeout (default 30)' },
  { name: 'TRIDENT_CA_FILE', what: 'extra CA certificates, added to the system roots, as --ca-file' },
  { name: 'TRIDENT_KEYS_URL', what: 'the keys service, as keys --url (setting keys.url)' },
  { name: 'TRIDENT_KEY_ID', what: 'the key that signs, as --key-id (setting keys.keyId)' },
  { name: 'TRIDENT_PRIVATE_KEY_FILE', what: "that key's PEM file, as --private-key (setting keys.privateKeyFile)" },
  { name: 'TRIDENT_PRIVATE_KEY', what: "that key's PEM itself, for CI secrets (never handed to hooks)" },
  { name: 'TRIDENT_TIME_URL', what: 'the time tracker, as time --url (setting time.url)' },
  { name: 'TRIDENT_TIME_TOKEN', what: "the time tracker's token, instead of the one time login stored" },
  { name: 'TRIDENT_CATALOG_URL', what: 'the catalog service, as catalog --url (setting catalog.url)' },
  { name: 'TRIDENT_CREDENTIAL_STORE', what: 'where new private keys and tokens go: keyring, file or auto (the default)' },
  { name: 'TRIDENT_MAX_RESPONSE_MB', what: 'the cap on one answer in MiB, 1-4096 (default 16)' },
  { name: 'TRIDENT_MAX_CSV_MB', what: 'the cap on a --from-csv file in MiB, 1-4096 (default 64)' },
  { name: 'TRIDENT_INSECURE_CONFIG', what: '1: accept settings, tokens and keys that others can write' },
  { name: 'HTTPS_PROXY, HTTP_PROXY, NO_PROXY', what: 'proxies (loopback is always reached directly)' },
  { name: 'NO_COLOR, FORCE_COLOR, TERM', what: 'colour: off, forced, or off on a dumb terminal' },
  { name: 'CI', what: 'set (and not false or 0): never prompt, as --no-input' },
  { name: 'COLUMNS', what: 'the width tables and help are fitted to, when the terminal does not say' },
  { name: 'TZ', what: 'the time zone of times shown in tables' },
  { name: 'XDG_CONFIG_HOME', what: 'where the config dir is when TRIDENT_CONFIG_DIR is not set' },
  { name: 'XDG_CACHE_HOME', what: "where start-up's code cache is kept (else ~/.cache): trident/code" },
  { name: 'NODE_DISABLE_COMPILE_CACHE', what: "1: start without the code caches (Node's own, and trident's)" },
];

export const SET_FOR_HOOKS: EnvironmentVariable[] = [
  { name: 'TRIDENT_DEPLOY_STEP', what: 'deploy, verify or rollback' },
  { name: 'TRIDENT_DEPLOY_KEY_ID', what: 'the key the step puts in place' },
  { name: 'TRIDENT_DEPLOY_KEY_FILE', what: "that key's PEM file, where it has one (its PEM is on stdin too)" },
  { name: 'TRIDENT_OLD_KEY_ID', what: 'the key being replaced' },
  { name: 'TRIDENT_NEW_KEY_ID', what: 'the new key' },
];

/** The text of `trident help environment`. */
export function environmentHelp(): string {
  const width = Math.max(...[...READ, ...SET_FOR_HOOKS].map((variable) => variable.name.length)) + 2;
  const lines = (variables: EnvironmentVariable[]) => variables.map(({ name, what }) => `  ${name.padEnd(width)}${what}`);
  return [
    'Environment variables trident reads (a flag wins over its variable, the variable over the profile):',
    '',
    ...lines(READ),
    '',
    'Set for the --deploy and --verify hooks of keys rotate (with your other variables, but not trident secrets):',
    '',
    ...lines(SET_FOR_HOOKS),
    '',
  ].join('\n');
}
