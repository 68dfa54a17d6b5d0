// --store where the service takes one parser_name: every catalog command but count and common-count.
import { once } from '../command.js';

export const oneStore = once('--store', 'only catalog count and common-count take several --store');
