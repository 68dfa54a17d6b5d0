// `trident version`: the version with what a bug report needs besides it. `--version` stays the bare number
// (scripts parse it).
import type { Command } from '@commander-js/extra-typings';
import { VERSION } from './core/version.js';
import type { Binder } from './command.js';
import { printBareOr } from './config/print.js';
import type { Context } from './context.js';

export function versionRecord(): Record<string, string> {
  return { version: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch };
}

export function register(group: Command, bind: Binder): void {
  group.action(
    bind(async (ctx: Context) => {
      const record = versionRecord();
      await printBareOr(ctx, `trident ${record.version} (Node ${record.node}, ${record.platform}-${record.arch})`, record);
    }),
  );
}
