// The bad invocations, by group: each with its documented exit code (mostly 2: found before any request) and
// what its one line must say. None of them may send a request (bad-input.test.ts checks that for each).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Fixtures } from './bad-input-fixtures.js';

export type Group = 'global' | 'keys' | 'time' | 'catalog' | 'config';

export interface BadInput {
  group: Group;
  args: string[];
  exit: number;
  message: RegExp;
  /** Changes to the environment that points at the sandboxes; undefined removes a variable. */
  env?: Record<string, string | undefined>;
  input?: string;
  /** Prepares the config dir (settings, profiles) before the run. */
  setup?: (configDir: string) => void;
}

/** Linux passes no single argument longer than this (MAX_ARG_STRLEN, 32 pages); a 1 MB value comes in a file. */
export const LONGEST_ARGUMENT = 128 * 1024 - 1;
const huge = 'x'.repeat(LONGEST_ARGUMENT);
const ESC = '\u001b';

function settings(profiles: Record<string, Record<string, string>>) {
  return (configDir: string) => {
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  };
}

export function badInputs(f: Fixtures): BadInput[] {
  const keys = (exit: number, message: RegExp, ...args: string[]): BadInput => ({ group: 'keys', args: ['keys', ...args], exit, message });
  const time = (exit: number, message: RegExp, ...args: string[]): BadInput => ({ group: 'time', args: ['time', ...args], exit, message });
  const catalog = (exit: number, message: RegExp, ...args: string[]): BadInput => ({
    group: 'catalog',
    args: ['catalog', ...args],
    exit,
    message,
  });
  const config = (exit: number, message: RegExp, ...args: string[]): BadInput => ({
    group: 'config',
    args: ['config', ...args],
    exit,
    message,
  });
  const global = (exit: number, message: RegExp, args: string[], more: Partial<BadInput> = {}): BadInput => ({
    group: 'global',
    args,
    exit,
    message,
    ...more,
  });
  const dynamics = (...flags: string[]) => [
    'dynamics',
    'p1',
    '--store',
    'fixprice',
    '--source-id',
    'fp-1',
    '--field',
    'price',
    '--interval',
    '1d',
    ...flags,
  ];
  const newKey = (...flags: string[]) => ['generate', '--name', 'n', ...flags];
  const upload = (file: string) => ['create', '--name', 'n', '--public-key', f.file(file)];
  const signWith = (file: string) => ['list', '--private-key', f.file(file)];
  const csv = (file: string) => ['customer-update', '--from-csv', f.file(file)];

  return [
    // ---- global options, settings, the command line itself
    global(2, /^option '-o, --output <format>' argument 'xml' is invalid/, ['catalog', 'health', '--output', 'xml']),
    global(2, /^invalid --timeout "0": expected a number of seconds above 0, at most 3600$/, ['catalog', 'health', '--timeout', '0']),
    global(2, /^invalid --timeout "abc"/, ['catalog', 'health', '--timeout', 'abc']),
    global(2, /^invalid --timeout "99999"/, ['catalog', 'health', '--timeout', '99999']),
    global(2, /^invalid --retries "-1": expected a whole number from 0 to 10$/, ['catalog', 'health', '--retries', '-1']),
    global(2, /^invalid --retries "11"/, ['catalog', 'health', '--retries', '11']),
    global(2, /^invalid --retries "1\.5"/, ['catalog', 'health', '--retries', '1.5']),
    global(2, /^invalid profile name "bad name"/, ['--profile', 'bad name', 'catalog', 'health']),
    global(2, /^invalid profile name ""/, ['--profile', '', 'catalog', 'health']),
    global(2, /^no catalog service URL configured: profile "nosuch" does not exist$/, ['--profile', 'nosuch', 'catalog', 'health'], {
      env: { TRIDENT_CATALOG_URL: undefined },
      setup: settings({ work: { 'catalog.url': 'http://127.0.0.1:9' } }),
    }),
    global(2, /^no key service URL configured: profile "nosuch" does not exist$/, ['keys', 'list'], {
      env: { TRIDENT_PROFILE: 'nosuch', TRIDENT_KEYS_URL: undefined },
    }),
    global(2, /^no time tracker URL configured: profile "nosuch" does not exist$/, ['--profile', 'nosuch', 'time', 'projects'], {
      env: { TRIDENT_TIME_URL: undefined },
    }),
    global(2, /^cannot read CA file \S+: ENOENT$/, ['catalog', 'health', '--ca-file', f.file('missing.pem')]),
    global(2, /^cannot read CA file \S+: EISDIR$/, ['catalog', 'health', '--ca-file', f.file('directory')]),
    global(2, /^CA file \S+ holds no PEM certificate$/, ['time', 'projects', '--ca-file', f.file('malformed-public.pem')]),
    global(2, /^CA file \S+ holds no PEM certificate$/, ['time', 'projects'], { env: { TRIDENT_CA_FILE: f.file('empty') } }),
    global(2, /^unknown command 'nosuch'$/, ['catalog', 'nosuch']),
    global(2, /^unknown command 'helth'$/, ['catalog', 'helth']),
    global(2, /^unknown command 'keyz'$/, ['keyz', 'list']),
    global(2, /^unknown option '--bogus'$/, ['catalog', 'health', '--bogus']),
    global(2, /^unknown option '--bogus\\x1b\[31m'$/, ['catalog', 'health', `--bogus${ESC}[31m`]),
    global(2, /^invalid TRIDENT_TIMEOUT "abc"/, ['catalog', 'health'], { env: { TRIDENT_TIMEOUT: 'abc' } }),
    global(2, /^invalid TRIDENT_OUTPUT "xml"/, ['catalog', 'health'], { env: { TRIDENT_OUTPUT: 'xml' } }),
    global(2, /^invalid TRIDENT_MAX_RESPONSE_MB "0"/, ['catalog', 'health'], { env: { TRIDENT_MAX_RESPONSE_MB: '0' } }),
    global(2, /^cannot read settings \S+settings\.json: /, ['catalog', 'health'], {
      setup: (dir) => {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'settings.json'), '{"profiles": {');
      },
    }),

    // ---- keys
    keys(2, /^--name is required/, 'generate'),
    keys(2, /^--name is required/, 'generate', '--name', ''),
    keys(2, /^--name is required/, 'generate', '--name', '   '),
    keys(2, /^--name contains the control character \\x1b$/, 'generate', '--name', `${ESC}[31mred`),
    keys(2, /^--name contains the control character \\x7f$/, 'create', '--name', 'rubout\u007f'),
    keys(2, new RegExp(`^--name is ${LONGEST_ARGUMENT} characters long; a name has at most 255$`), 'generate', '--name', huge),
    keys(2, /write scope requires read/, ...newKey('--scopes', 'write')),
    keys(2, /^invalid --scopes ""/, ...newKey('--scopes', '')),
    keys(2, /^invalid --scopes "read,trade"/, ...newKey('--scopes', 'read,trade')),
    keys(2, /^invalid --subaccount "64"/, ...newKey('--subaccount', '64')),
    keys(2, /^invalid --subaccount "-1"/, ...newKey('--subaccount', '-1')),
    keys(2, /^invalid --subaccount "1\.5"/, ...newKey('--subaccount', '1.5')),
    keys(2, /cannot be used together/, ...newKey('--subaccount', '1', '--fcm-subtrader-id', 'u1_a')),
    keys(2, /^invalid --fcm-subtrader-id "nounderscore"/, ...newKey('--fcm-subtrader-id', 'nounderscore')),
    keys(2, /^invalid --fcm-subtrader-id "bad id_x"/, 'list', '--fcm-subtrader-id', 'bad id_x'),
    keys(2, /is a certificate, not a public key$/, ...upload('cert.pem')),
    keys(2, /is a DSA key, which the service does not accept$/, ...upload('dsa-public.pem')),
    keys(2, /is an RSA key of 1024 bits; the service needs at least 2048$/, ...upload('rsa1024-public.pem')),
    keys(2, /is not a readable public key/, ...upload('malformed-public.pem')),
    keys(2, /is not a PEM public key/, ...upload('empty')),
    keys(2, /is not a PEM public key/, ...upload('ssh.pub')),
    keys(2, /is an encrypted private key$/, ...upload('encrypted.pem')),
    keys(2, /is a EC key, which cannot sign requests$/, ...upload('ec-private.pem')),
    keys(2, /^cannot read --public-key \S+: EISDIR$/, ...upload('directory')),
    keys(2, /^cannot read --public-key \S+: ENOENT$/, ...upload('missing.pem')),
    keys(2, /^cannot read --public-key \S+: ELOOP$/, ...upload('loop')),
    keys(2, /^--out and --bits are for a key pair made here/, ...upload('public.pem'), '--out', f.file('new.pem')),
    keys(2, /--out - is not available/, 'create', '--name', 'n', '--out', '-'),
    keys(2, /is a DSA key, which cannot sign requests$/, ...signWith('dsa-private.pem')),
    keys(2, /is an RSA key of 1024 bits; the service needs at least 2048$/, ...signWith('rsa1024-private.pem')),
    keys(2, /is not a readable private key/, ...signWith('malformed-private.pem')),
    keys(2, /is a CERTIFICATE, not a private key$/, ...signWith('cert.pem')),
    keys(4, /^cannot read private key file \S+: EISDIR$/, ...signWith('directory')),
    {
      group: 'keys',
      args: ['keys', 'list'],
      exit: 2,
      message: /^TRIDENT_PRIVATE_KEY is not a PEM private key/,
      env: { TRIDENT_PRIVATE_KEY_FILE: undefined, TRIDENT_PRIVATE_KEY: 'garbage' },
    },
    keys(2, /^refusing to send credentials in clear text to http:\/\/example\.com/, 'list', '--url', 'http://example.com'),
    keys(2, /^invalid --url "not a url": not a URL$/, 'list', '--url', 'not a url'),
    keys(2, /a base URL has no query or fragment$/, 'list', '--url', 'https://h.example/x?y=1'),
    { group: 'keys', args: ['keys', 'list'], exit: 4, message: /^no key id configured$/, env: { TRIDENT_KEY_ID: undefined } },
    keys(3, /^Delete key k1: confirmation needed$/, 'delete', 'k1'),
    keys(2, /already exists$/, ...newKey('--out', f.file('existing.pem'))),
    keys(2, /^--use needs the private key in a file/, ...newKey('--use', '--out', '-')),
    keys(2, /^cannot write to \S+not-a-dir: /, ...newKey('--out', join(f.file('not-a-dir'), 'k.pem'))),

    // ---- time
    time(
      2,
      /^refusing to send credentials in clear text to http:\/\/127\.0\.0\.1:9 \(--url\)$/,
      'projects',
      '--url',
      'http://127.0.0.1:9/api/v1',
    ),
    {
      group: 'catalog',
      args: ['catalog', 'health'],
      exit: 2,
      message: /^invalid TRIDENT_CATALOG_URL "ftp:\/\/x": use http\(s\):\/\/$/,
      env: { TRIDENT_CATALOG_URL: 'ftp://x' },
    },
    time(2, /^invalid project id "abc"/, 'projects', 'get', 'abc'),
    time(2, /^invalid project id "0"/, 'projects', 'get', '0'),
    time(2, /^invalid project id "99999999999999999999"/, 'projects', 'get', '99999999999999999999'),
    time(2, /^required option '--name <name>' not specified$/, 'projects', 'create'),
    time(2, /^--name must not be empty$/, 'projects', 'create', '--name', ''),
    time(2, /^--name contains the control character \\x07$/, 'projects', 'create', '--name', 'ding\u0007'),
    time(2, /^--name is 300 characters long; a name has at most 255$/, 'projects', 'create', '--name', 'n'.repeat(300)),
    time(
      2,
      /^invalid --active "maybe": expected true or false \(yes\/no and 1\/0 are taken too\)$/,
      'projects',
      'create',
      '--name',
      'x',
      '--active',
      'maybe',
    ),
    time(2, /^invalid --rate "abc"/, 'projects', 'create', '--name', 'x', '--rate', 'abc'),
    time(2, /^invalid --customer-id "abc"/, 'projects', 'create', '--name', 'x', '--customer-id', 'abc'),
    time(2, /^nothing to update$/, 'projects', 'update', '57'),
    time(2, /^which customer\?$/, 'customer-update'),
    time(2, /^invalid customer id "abc"/, 'customer-update', 'abc', '--name', 'x'),
    time(2, /^--name is required and must not be empty$/, 'customer-update', '3'),
    time(2, /^--name contains the control character \\x1b$/, 'customer-update', '3', '--name', `${ESC}]0;owned\u0007`),
    time(2, /line 1: the header must be exactly the columns id and name/, ...csv('csv-header.csv')),
    time(2, /line 2: id "x" is not a positive whole number; nothing was sent$/, ...csv('csv-id.csv')),
    time(2, /line 3: customer 3 appears again \(first on line 2\); nothing was sent$/, ...csv('csv-duplicate.csv')),
    time(2, /Quote Not Closed/, ...csv('csv-unclosed.csv')),
    time(2, /is empty$/, ...csv('empty')),
    time(2, /has a header but no rows$/, ...csv('csv-header-only.csv')),
    time(2, /line 2: expected 2 fields \(id,name\), found 3/, ...csv('csv-columns.csv')),
    time(2, /line 2: the name of customer 3 contains the control character \\x1b/, ...csv('csv-control.csv')),
    time(2, /line 2: the name of customer 3 is 1048576 characters long; a name has at most 255/, ...csv('csv-huge-name.csv')),
    time(2, /^cannot read \S+: ENOENT$/, ...csv('missing.csv')),
    time(2, /^cannot read \S+: EISDIR$/, ...csv('directory')),
    time(2, /^--from-csv takes ids and names from the file/, ...csv('csv-id.csv'), '--name', 'x'),
    time(2, /^invalid --concurrency "0"/, ...csv('csv-id.csv'), '--concurrency', '0'),
    time(3, /^Delete project 64: confirmation needed$/, 'projects', 'delete', '64'),
    {
      group: 'time',
      args: ['time', 'projects'],
      exit: 4,
      message: /^not logged in to the time tracker \(profile "default"\)$/,
      env: { TRIDENT_TIME_TOKEN: undefined },
    },
    {
      group: 'time',
      args: ['time', 'projects'],
      exit: 2,
      message: /^TRIDENT_TIME_TOKEN does not hold a token/,
      env: { TRIDENT_TIME_TOKEN: 'abc\u0001def' },
    },
    {
      group: 'time',
      args: ['time', 'projects'],
      exit: 2,
      message: /^TRIDENT_TIME_TOKEN does not hold a token/,
      env: { TRIDENT_TIME_TOKEN: 't'.repeat(8192) },
    },
    {
      group: 'time',
      args: ['time', 'projects', '--token-file', f.file('missing-token')],
      exit: 4,
      message: /^cannot read token file \S+: ENOENT$/,
      env: { TRIDENT_TIME_TOKEN: undefined },
    },
    {
      group: 'time',
      args: ['time', 'projects', '--token-file', f.file('token-words')],
      exit: 2,
      message: /does not hold a token$/,
      env: { TRIDENT_TIME_TOKEN: undefined },
    },
    {
      group: 'time',
      args: ['time', 'projects', '--token-file', f.file('token-other-agent.json')],
      exit: 2,
      message: /^the token was created with User-Agent "curl\/8\.5\.0"/,
      env: { TRIDENT_TIME_TOKEN: undefined },
    },
    time(2, /^no password given$/, 'login', '--email', 'demo@example.com'),
    {
      group: 'time',
      args: ['time', 'login', '--email', 'demo@example.com', '--password-stdin'],
      exit: 2,
      message: /^the password must not be empty$/,
      input: '',
    },
    {
      group: 'time',
      args: ['time', 'login', '--email', ' ', '--password-stdin'],
      exit: 2,
      message: /^the email must not be empty$/,
      input: 'pw\n',
    },

    // ---- catalog
    catalog(2, /^invalid --limit "0": expected a whole number from 1 to 100$/, 'products', '--limit', '0'),
    catalog(2, /^invalid --limit "101"/, 'products', '--limit', '101'),
    catalog(
      2,
      /^invalid --limit "x+ \[…\d+ characters left out…\] x+": expected a whole number from 1 to 100$/,
      'products',
      '--limit',
      huge,
    ),
    catalog(2, /^invalid --offset "-1"/, 'products', '--offset', '-1'),
    catalog(2, /^invalid --price-min "abc": expected a number$/, 'products', '--price-min', 'abc'),
    catalog(2, /^invalid --price-min "Infinity"/, 'products', '--price-min', 'Infinity'),
    catalog(2, /^invalid --category "1\.5"/, 'products', '--category', '1.5'),
    catalog(2, /^the request URL would be \d+ characters long; services refuse URLs over 8192$/, 'products', '--search', huge),
    catalog(2, /^the request URL would be \d+ characters long/, 'product', huge),
    catalog(2, /^the product id is empty$/, 'product', '   '),
    catalog(2, /^invalid category id "abc"/, 'category', 'abc'),
    catalog(2, /^invalid settlement id "1\.5"/, 'settlement', '1.5'),
    catalog(2, /^--from "2026-02-01T10:00:00" has no UTC offset/, ...dynamics('--from', '2026-02-01T10:00:00')),
    catalog(2, /^invalid --from "2026-02-30": no such date or time$/, ...dynamics('--from', '2026-02-30')),
    catalog(
      2,
      /^--from 2026-03-01T00:00:00\.000Z is after --to 2026-02-01T00:00:00\.000Z$/,
      ...dynamics('--from', '2026-03-01', '--to', '2026-02-01'),
    ),
    catalog(
      2,
      /every 1h is \d+ points; the service allows at most 20000$/,
      'dynamics',
      'p1',
      '--store',
      's',
      '--source-id',
      'i',
      '--field',
      'price',
      '--interval',
      '1h',
      '--from',
      '2000-01-01',
      '--to',
      '2026-01-01',
    ),
    catalog(2, /^invalid --from "yesterday"/, ...dynamics('--from', 'yesterday')),
    catalog(2, /^invalid --from "-999999999w": that is before the year 1$/, ...dynamics('--from', '-999999999w')),
    catalog(
      2,
      /^invalid --from "2026-02-01T10:00:00\+25:00": the offset \+25:00 is out of range$/,
      ...dynamics('--from', '2026-02-01T10:00:00+25:00'),
    ),
    catalog(2, /^--scope is required/, 'common-count'),
    catalog(2, /^invalid --url "ftp:\/\/x": use http\(s\):\/\/$/, 'health', '--url', 'ftp://x'),
    catalog(2, /^invalid --url "http:\/\/\[::1": not a URL$/, 'health', '--url', 'http://[::1'),

    // ---- config
    config(2, /^unknown setting "nosuch\.key"$/, 'set', 'nosuch.key', 'v'),
    config(2, /^invalid value "xml" for output/, 'set', 'output', 'xml'),
    config(2, /^invalid URL "not a url" for keys\.url$/, 'set', 'keys.url', 'not a url'),
    config(2, /^unknown setting "nosuch"$/, 'get', 'nosuch'),
  ];
}
