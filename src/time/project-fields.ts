// The writable project fields as command-line flags, and their translation into the service's form fields
// (booleans as true/false, privacy 1 public or 2 private, bill_by project or user). Values are checked here,
// before any request (exit 2).
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { usageError } from '../core/errors.js';
import { checkName } from '../core/names.js';
import type { ProjectForm } from './client.js';
import { requireId } from './ids.js';

export interface ProjectFieldFlags {
  name?: string;
  description?: string;
  active?: string;
  privacy?: string;
  customerId?: string;
  billable?: string;
  billBy?: string;
  rate?: string;
  requiredTask?: string;
  template?: string;
}

const BOOLEAN_HELP = '(true|false)';

export function addProjectFieldOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  command: Command<A, O, G>,
  { nameRequired }: { nameRequired: boolean },
) {
  const name = new Option('--name <name>', 'project name');
  if (nameRequired) name.makeOptionMandatory();
  return command
    .addOption(name)
    .option('--description <text>', 'description ("" clears it)')
    .option('--active <bool>', `active, or archived when false ${BOOLEAN_HELP}`)
    .addOption(new Option('--privacy <privacy>', 'who can see the project').choices(['public', 'private']))
    .option('--customer-id <id>', 'customer the project belongs to ("" detaches it)')
    .option('--billable <bool>', `billable ${BOOLEAN_HELP}`)
    .addOption(new Option('--bill-by <basis>', "bill by the project rate or each user's rate").choices(['project', 'user']))
    .option('--rate <decimal>', 'hourly rate, e.g. 95.50 ("" clears it)')
    .option('--required-task <bool>', `time entries need a task ${BOOLEAN_HELP}`)
    .option('--template <bool>', `the project is a template ${BOOLEAN_HELP}`);
}

/** Only the flags that were given become form fields: an update changes nothing else. */
export function projectForm(flags: ProjectFieldFlags): ProjectForm {
  const form: ProjectForm = {};
  if (flags.name !== undefined) {
    if (flags.name.trim() === '') throw usageError('--name must not be empty');
    form.name = checkName(flags.name.trim(), '--name');
  }
  if (flags.description !== undefined) form.description = flags.description;
  for (const [flag, field, value] of [
    ['--active', 'active', flags.active],
    ['--billable', 'billable', flags.billable],
    ['--required-task', 'required_task', flags.requiredTask],
    ['--template', 'template', flags.template],
  ] as const) {
    if (value !== undefined) form[field] = String(parseBoolean(value, flag));
  }
  if (flags.privacy !== undefined) {
    if (flags.privacy !== 'public' && flags.privacy !== 'private')
      throw usageError(`invalid --privacy "${flags.privacy}": expected public or private`);
    form.privacy = flags.privacy === 'public' ? '1' : '2';
  }
  if (flags.customerId !== undefined)
    form.customer_id = flags.customerId.trim() === '' ? '' : String(requireId(flags.customerId, '--customer-id'));
  if (flags.billBy !== undefined) {
    if (flags.billBy !== 'project' && flags.billBy !== 'user')
      throw usageError(`invalid --bill-by "${flags.billBy}": expected project or user`);
    form.bill_by = flags.billBy;
  }
  if (flags.rate !== undefined) {
    const rate = flags.rate.trim();
    if (rate !== '' && !/^\d+(\.\d+)?$/.test(rate))
      throw usageError(`invalid --rate "${flags.rate}": expected a decimal number such as 95.50`);
    form.rate = rate;
  }
  return form;
}

export function parseBoolean(value: string, flag: string): boolean {
  switch (value.trim().toLowerCase()) {
    case 'true':
    case '1':
    case 'yes':
      return true;
    case 'false':
    case '0':
    case 'no':
      return false;
    default:
      throw usageError(`invalid ${flag} "${value}": expected true or false (yes/no and 1/0 are taken too)`);
  }
}
