// Tables show times in the configured zone and ages in words; every machine format keeps the exact text.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Format } from '../../../src/core/term/output/format.js';
import { Output } from '../../../src/core/term/output/output.js';

function capture(format: Format, timeZone?: string) {
  const stream = Object.assign(new PassThrough(), { columns: 200 });
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  const output = new Output(stream, format, false);
  output.configure({ timeZone });
  return { output, text: () => text };
}

type Key = { id: string; created_ts: string; age_seconds: number };
const keys: Key[] = [{ id: 'k1', created_ts: '2026-11-22T09:15:00.123456Z', age_seconds: 3 * 86_400 + 60 }];
const columns = [
  { header: 'id', value: (key: Key) => key.id },
  { header: 'created', key: 'created_ts', value: (key: Key) => key.created_ts },
  { header: 'age', key: 'age_seconds', value: (key: Key) => key.age_seconds },
];

describe('times in output', () => {
  it('a table shows an instant in the zone with its offset, to the second, and an age in words', async () => {
    const { output, text } = capture('table', 'Asia/Kolkata');
    await output.list(keys, columns);
    expect(text()).toMatch(/│ k1 +│ 2026-11-22 14:45:00 \+05:30 │ 3 days │/);
  });

  it('the table of one record does the same by field name; other fields stay as they came', async () => {
    const { output, text } = capture('table', 'Europe/Paris');
    await output.object({ observed_at: '2026-07-01T10:00:00Z', title: '2026-07-01T10:00:00Z' });
    expect(text()).toMatch(/│ observed at │ 2026-07-01 12:00:00 \+02:00 │/);
    expect(text()).toMatch(/│ title +│ 2026-07-01T10:00:00Z +│/);
  });

  it.each(['json', 'ndjson', 'csv', 'tsv'] as const)('%s keeps the exact UTC text and the seconds', async (format) => {
    const { output, text } = capture(format, 'Asia/Kolkata');
    await output.list(keys, columns);
    expect(text()).toContain('2026-11-22T09:15:00.123456Z');
    expect(text()).toContain(String(3 * 86_400 + 60));
    expect(text()).not.toContain('+05:30');
  });
});
