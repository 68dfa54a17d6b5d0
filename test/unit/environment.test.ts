// `trident help environment` is the one list of the environment: every variable the sources name is in it, and
// docs/configuration.md names every one of them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ, SET_FOR_HOOKS, environmentHelp } from '../../src/environment.js';

const root = join(import.meta.dirname, '..', '..');
const names = (list: typeof READ) => list.flatMap((variable) => variable.name.split(', '));
/** Names shaped like variables that are not: error codes, and the test build's crash hook. */
const NOT_VARIABLES = new Set(['TRIDENT_DEADLINE', 'TRIDENT_BROKEN_HTTP', 'TRIDENT_TEST_CRASH_AFTER']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

describe('the environment', () => {
  it('lists every TRIDENT_ variable the sources read or set', () => {
    const named = new Set(sources(join(root, 'src')).flatMap((file) => readFileSync(file, 'utf8').match(/\bTRIDENT_[A-Z0-9_]+\b/g) ?? []));
    const listed = new Set([...names(READ), ...names(SET_FOR_HOOKS)]);
    expect([...named].filter((name) => !NOT_VARIABLES.has(name) && !listed.has(name)).sort()).toEqual([]);
  });

  it('docs/configuration.md names every variable trident reads or sets', () => {
    const page = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');
    expect([...names(READ), ...names(SET_FOR_HOOKS)].filter((name) => !page.includes(`\`${name}`))).toEqual([]);
  });

  it('help environment gives each variable a line of its own', () => {
    const text = environmentHelp();
    for (const { name } of [...READ, ...SET_FOR_HOOKS]) expect(text).toMatch(new RegExp(`^  ${name.replace(/[$]/g, '\\$&')} +\\S`, 'm'));
  });
});
