// The rotation recipes of docs/automation.md (GitHub Actions secrets, a Kubernetes secret) run as written against
// the sandbox, with stand-ins for gh, kubectl and curl that record their arguments and stdin: the recipes
// work, the PEM reaches the secret through stdin, and the old key is deleted only after the verify step.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, childEnv } from '../helpers/cli.js';
import { keyExists } from '../helpers/keys-sandbox.js';
import { useKeysSandbox } from '../helpers/per-suite.js';
import { profileKey, profileWithKey, type RotationSetup } from '../helpers/keys-rotation.js';

let shift = 0;
const sandbox = useKeysSandbox({ now: () => Date.now() - shift });

/** A stand-in tool: each call appends its arguments to calls.log; what reads stdin keeps it in stdin-secret / stdin-apply. */
const STUB = `#!/bin/sh
log="$STUB_LOG"
echo "$(basename "$0") $*" >> "$log/calls.log"
case "$*" in
  *"secret set EXCHANGE_PRIVATE_KEY"*|*"create secret"*) cat > "$log/stdin-secret" ;;
  *"apply -f -"*) cat > "$log/stdin-apply" ;;
esac
case "$*" in *"create secret"*) echo "kind: Secret" ;; esac
exit 0
`;

function stubs(): { bin: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'trident-recipe-'));
  const bin = join(dir, 'bin');
  const log = join(dir, 'log');
  mkdirSync(bin);
  mkdirSync(log);
  for (const tool of ['gh', 'kubectl', 'curl']) {
    writeFileSync(join(bin, tool), STUB);
    chmodSync(join(bin, tool), 0o755);
  }
  return { bin, log };
}

/** The `keys rotate` commands with hooks of docs/automation.md: the workflow's step (dedented), the Kubernetes block. */
async function recipes(): Promise<string[]> {
  const page = readFileSync(join(import.meta.dirname, '../../docs/automation.md'), 'utf8');
  const blocks = [...page.matchAll(/```(?:sh|yaml)\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const found: string[] = [];
  for (const block of blocks.filter((text) => /--deploy '(gh|kubectl) /.test(text))) {
    const lines = block.split('\n');
    const start = lines.findIndex((line) => /^\s*trident keys rotate /.test(line));
    const indent = /^\s*/.exec(lines[start]!)![0].length;
    const end = lines.findIndex((line, at) => at > start && line.trim() !== '' && /^\s*/.exec(line)![0].length <= indent);
    found.push(
      lines
        .slice(start, end < 0 ? undefined : end)
        .map((line) => line.slice(indent))
        .join('\n')
        .trim(),
    );
  }
  return found;
}

async function runRecipe(recipe: string, setup: RotationSetup, tools: { bin: string; log: string }) {
  const script = `trident() { "$NODE" "$BIN" "$@"; }\n${recipe}`;
  const env = {
    ...childEnv({ configDir: setup.configDir }),
    PATH: `${tools.bin}:${process.env.PATH}`,
    NODE: process.execPath,
    BIN,
    STUB_LOG: tools.log,
    TRIDENT_PROFILE: setup.profile,
  };
  const result = await execa('bash', ['--norc', '-c', script], { env, extendEnv: false, reject: false, timeout: 45_000 });
  return {
    exitCode: result.exitCode,
    stderr: String(result.stderr),
    calls: readFileSync(join(tools.log, 'calls.log'), 'utf8').trim().split('\n'),
  };
}

// A rotation with hooks runs a dozen processes: 60 s per test leaves a loaded machine twice the time seen.
describe('the rotation recipes of docs/automation.md', { timeout: 60_000 }, () => {
  it('there are two: GitHub Actions and Kubernetes', async () => {
    const found = await recipes();
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('gh secret set');
    expect(found[1]).toContain('kubectl create secret');
  });

  it('GitHub Actions: a key older than 90 days goes to the secrets (PEM on stdin), the app redeploys and answers, the old key goes', async () => {
    shift = 100 * 86_400_000;
    const setup = profileWithKey(sandbox);
    shift = 0;
    const tools = stubs();
    const result = await runRecipe((await recipes())[0]!, setup, tools);
    expect(result.exitCode, result.stderr).toBe(0);
    const { keyId: newId, file } = profileKey(setup);
    expect(newId).not.toBe(setup.oldId);
    expect(result.calls).toEqual([
      'gh secret set EXCHANGE_PRIVATE_KEY --repo me/app',
      `gh secret set EXCHANGE_KEY_ID --repo me/app --body ${newId}`,
      'gh workflow run deploy.yml --repo me/app',
      'curl -fsS --retry 20 --retry-delay 15 --retry-all-errors https://trader.example.com/health/exchange',
    ]);
    expect(readFileSync(join(tools.log, 'stdin-secret'), 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(keyExists(sandbox, setup.oldId)).toBe(false);
  });

  it('Kubernetes: the secret is made from stdin and applied, the deployment restarted and waited for, the old key goes', async () => {
    const setup = profileWithKey(sandbox);
    const tools = stubs();
    const result = await runRecipe((await recipes())[1]!, setup, tools);
    expect(result.exitCode, result.stderr).toBe(0);
    const { keyId: newId, file } = profileKey(setup);
    // the two ends of the pipe may log in either order
    expect(result.calls.slice(0, 2).sort()).toEqual([
      'kubectl apply -f -',
      `kubectl create secret generic exchange-key --from-file=key.pem=/dev/stdin --from-literal=key-id=${newId} --dry-run=client -o yaml`,
    ]);
    expect(result.calls.slice(2)).toEqual(['kubectl rollout restart deploy/trader', 'kubectl rollout status deploy/trader --timeout=120s']);
    expect(readFileSync(join(tools.log, 'stdin-secret'), 'utf8')).toBe(readFileSync(file, 'utf8'));
    expect(readFileSync(join(tools.log, 'stdin-apply'), 'utf8')).toBe('kind: Secret\n');
    expect(keyExists(sandbox, setup.oldId)).toBe(false);
  });
});
