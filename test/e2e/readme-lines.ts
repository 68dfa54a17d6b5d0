// The `trident ...` commands of a Markdown page's code blocks (README.md, docs/), as a reader would copy them:
// one command per logical line (` \` continuations and quotes that span lines joined), an `if ...; then`
// construct up to its `fi`.

export interface ReadmeCommand {
  /** The command on one line, without its trailing comment: what the test's tables name it by. */
  line: string;
  /** What bash runs: the command as written, or the whole `if ... fi` construct it opens. */
  script: string;
  /** The `export` lines written before it in the same block (a reader runs them in the same shell). */
  exports: string[];
}

/** A command starts a line, or follows `$(`, `;`, `&&`, a pipe or a workflow's `run:`. */
const TRIDENT = /(^|\$\(|;\s*|&&\s*|\|\s*|run:\s+)trident\s/;

export function readmeCommands(markdown: string): ReadmeCommand[] {
  return codeBlocks(markdown).flatMap((block) => {
    const commands: ReadmeCommand[] = [];
    const exports: string[] = [];
    const lines = logicalLines(block);
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!.trim();
      if (text.startsWith('#')) continue;
      if (text.startsWith('export ')) exports.push(text);
      const line = withoutComment(oneLine(text));
      if (!TRIDENT.test(line)) continue;
      let script = text;
      if (text.startsWith('if ')) {
        const end = lines.findIndex((next, j) => j > i && next.trim() === 'fi');
        script = lines.slice(i, end + 1).join('\n');
        i = end;
      }
      commands.push({ line, script, exports: [...exports] });
    }
    return commands;
  });
}

function codeBlocks(markdown: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) {
      if (current) blocks.push(current);
      current = current ? undefined : [];
    } else current?.push(line);
  }
  return blocks;
}

/** Joins a line ending in ` \` and a line whose single quotes are still open with the lines that finish it. */
function logicalLines(block: string[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i < block.length; i++) {
    let line = block[i]!;
    while (i + 1 < block.length && (line.endsWith(' \\') || openQuote(line))) line += `\n${block[++i]}`;
    lines.push(line);
  }
  return lines;
}

function openQuote(text: string): boolean {
  return (withoutComment(text).match(/'/g)?.length ?? 0) % 2 === 1;
}

function oneLine(text: string): string {
  return text.replace(/ \\\n\s*/g, ' ').replace(/\n\s*/g, ' ');
}

function withoutComment(line: string): string {
  return line.replace(/\s+# .*$/, '');
}
