// time report as a table on a narrow terminal, for each --group-by: the time, the amount and the column that
// names the groups stay, the start and end times go first.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output } from '../../../src/core/term/output/output.js';
import { reportColumns } from '../../../src/time/commands/report.js';
import { reportLines } from '../../../src/time/report-lines.js';
import { GROUP_BY, buildReport } from '../../../src/time/report.js';

const rows = [
  {
    project_name: 'Website relaunch',
    user_name: 'Ana Lima',
    date_execution: '2026-11-02',
    description: 'Kick-off, scope',
    time_start: '09:00:00',
    time_end: '12:30:00',
    time_total: '03:30:00',
    rate_total: '334.25',
  },
  {
    project_name: 'Café Zürich — Kassensystem',
    user_name: 'Jürgen Weiß',
    date_execution: '2026-11-03',
    description: 'Bugfix',
    time_start: '09:00:00',
    time_end: '09:20:15',
    time_total: '00:20:15',
    rate_total: '37.13',
  },
];

async function table(groupBy: (typeof GROUP_BY)[number], width: number) {
  const stream = Object.assign(new PassThrough(), { columns: width });
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  const notes: string[] = [];
  const output = new Output(stream, 'table', false);
  output.configure({ note: (message) => notes.push(message) });
  await output.list(reportLines(buildReport(rows, groupBy), groupBy), reportColumns(groupBy));
  return { text, header: text.split('\n')[1]!, notes };
}

describe('time report on a narrow terminal', () => {
  it.each(GROUP_BY)('--group-by %s at 80 columns keeps time, amount and the group; the start and end go first', async (groupBy) => {
    const { text, header, notes } = await table(groupBy, 80);
    expect(header).toMatch(/│ time +│ amount +│$/);
    expect(header).toContain('│ description');
    if (groupBy === 'day') expect(header).toMatch(/^│ date +│/);
    if (groupBy === 'project') expect(header).toContain('│ project');
    expect(header).not.toMatch(/│ (start|end) /);
    expect(notes[0]).toMatch(/^time_start, time_end(, [a-z_, ]+)? hidden to fit 80 columns/);
    expect(text).toMatch(/total \(2 +│ 03:50:15 +│ 371\.38 +│$/m);
  });

  it.each(GROUP_BY)('--group-by %s at 200 columns hides nothing', async (groupBy) => {
    const { header, notes } = await table(groupBy, 200);
    expect(header).toMatch(/^│ date +│ project +│ user +│ description +│ start +│ end +│ time +│ amount +│$/);
    expect(notes).toEqual([]);
  });
});
