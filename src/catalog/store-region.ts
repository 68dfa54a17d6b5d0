// Repeatable --store/--region of `count` and `common-count`: each becomes one repeated query parameter.
// The service trims, lower-cases and de-duplicates them, and echoes what it used.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Column } from '../core/term/output/columns.js';
import type { Item } from '../wire/catalog/answers.js';
import { addConnectionOptions } from './connection.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function addStoreRegionOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
  storeHelp: string,
  regionHelp: string,
) {
  return addConnectionOptions(
    command.option('--store <name>', `${storeHelp} (repeatable)`, collect).option('--region <name>', `${regionHelp} (repeatable)`, collect),
  );
}

/** A table row for the normalized stores or regions the service echoes; null means it used them all. */
export function echoed(header: string, key: string): Column<Item> {
  return { header, value: (answer) => answer[key] ?? '(all)' };
}
