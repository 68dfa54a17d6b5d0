// The settings that set, get and unset accept, listed in their help from the table the code checks against.
import { Help } from '@commander-js/extra-typings';
import { SETTINGS, SETTING_KEYS, type SettingKey } from '../core/files/settings.js';

interface Spec {
  env?: string;
  default?: string;
  choices?: readonly string[];
  description: string;
}

export const NO_SECRETS =
  'Secrets are not settings and are never shown: the time token is kept in <config dir>/tokens/, private keys in their PEM files.';

const HELP_WIDTH = 80;

/** A "Settings:" block for addHelpText, wrapped like commander's own lists. */
export function settingsHelp(): string {
  const width = Math.max(...SETTING_KEYS.map((key) => key.length));
  const indent = ' '.repeat(width + 4);
  const lines = SETTING_KEYS.map(
    (key) =>
      `  ${key.padEnd(width)}  ${new Help()
        .boxWrap(describe(key), HELP_WIDTH - indent.length)
        .split('\n')
        .join(`\n${indent}`)}`,
  );
  return `\nSettings:\n${lines.join('\n')}`;
}

function describe(key: SettingKey): string {
  const spec: Spec = SETTINGS[key];
  const notes = [spec.env && `env ${spec.env}`, spec.default && `default ${spec.default}`].filter(Boolean);
  const choices = spec.choices ? `: ${spec.choices.join(', ')}` : '';
  return `${spec.description}${choices}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}
