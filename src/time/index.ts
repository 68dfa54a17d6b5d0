import type { Command } from 'commander';
import type { Binder } from '../command.js';

export function register(_group: Command, _bind: Binder): void {}
