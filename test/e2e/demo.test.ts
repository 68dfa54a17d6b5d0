import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

describe('npm run demo', () => {
  it('tours every group on the embedded sandbox, shows no secret, and cleans up after itself', async () => {
    const result = await execa(process.execPath, [join(import.meta.dirname, '../../scripts/demo.mjs')], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const output = `${result.stdout}\n${result.stderr}`;
    for (const command of [
      'keys list',
      'keys generate',
      'keys rotate',
      'keys delete',
      'time projects',
      'time customer-update',
      'catalog count',
      'catalog common-count',
      'catalog dynamics',
    ]) {
      expect(output).toContain(`$ trident ${command}`);
    }
    expect(output).toContain('rotated');
    // Printed as it would be typed: a value with spaces is quoted, so the line works when pasted.
    expect(output).toContain("$ trident time customer-update 4 --name 'Café Zürich AG' -o table");
    expect(output).not.toMatch(/PRIVATE KEY|"token"/);
    const configDir = /a "sandbox" profile in (\S+)/.exec(output)?.[1];
    expect(configDir).toBeDefined();
    expect(existsSync(join(configDir!, '..'))).toBe(false);
  });
});
