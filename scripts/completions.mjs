// Regenerates completions/ from the built CLI (npm run completions). A test fails when they drift.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const files = { bash: 'completions/trident.bash', zsh: 'completions/_trident', fish: 'completions/trident.fish' };
for (const [shell, file] of Object.entries(files)) {
  writeFileSync(file, execFileSync(process.execPath, ['bin/trident.cjs', 'completion', shell], { encoding: 'utf8' }));
  console.log(`wrote ${file}`);
}
