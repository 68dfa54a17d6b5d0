// trident version adds what a bug report needs; --version stays the bare number scripts parse.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('trident version', () => {
  it('prints the version with Node, platform and arch; --version stays the number alone', async () => {
    expect(await runCli(['version'])).toEqual({
      exitCode: 0,
      stdout: `trident ${version} (Node ${process.versions.node}, ${process.platform}-${process.arch})\n`,
      stderr: '',
    });
    expect(await runCli(['--version'])).toEqual({ exitCode: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('-o json is one object, and --jq works on it', async () => {
    const json = await runCli(['version', '-o', 'json']);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ version, node: process.versions.node, platform: process.platform, arch: process.arch });
    expect(await runCli(['version', '--jq', '.node'])).toEqual({ exitCode: 0, stdout: `${process.versions.node}\n`, stderr: '' });
  });
});
