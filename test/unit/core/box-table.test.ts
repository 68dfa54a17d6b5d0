import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { boxTable } from '../../../src/core/term/output/box-table.js';

describe('boxTable', () => {
  it('rules the header off from the rows, and the rows from each other only when asked', () => {
    expect(
      boxTable(
        ['id', 'name'],
        [
          ['1', 'Чай'],
          ['22', '日本'],
        ],
        [],
        false,
      ),
    ).toBe(['┌────┬──────┐', '│ id │ name │', '├────┼──────┤', '│  1 │ Чай  │', '│ 22 │ 日本 │', '└────┴──────┘'].join('\n'));
    expect(
      boxTable(
        ['id', 'note'],
        [
          ['1', 'a\nb'],
          ['2', 'c'],
        ],
        [],
        true,
      ),
    ).toBe(
      [
        '┌────┬──────┐',
        '│ id │ note │',
        '├────┼──────┤',
        '│  1 │ a    │',
        '│    │ b    │',
        '├────┼──────┤',
        '│  2 │ c    │',
        '└────┴──────┘',
      ].join('\n'),
    );
  });

  it('rules a header of several lines off below its last line', () => {
    expect(boxTable(['time\ntotal', 'id'], [['1h', '7']], [], false).split('\n')).toEqual([
      '┌───────┬────┐',
      '│ time  │ id │',
      '│ total │    │',
      '├───────┼────┤',
      '│ 1h    │  7 │',
      '└───────┴────┘',
    ]);
  });

  it('right-aligns a column of a list whose every filled cell is a number, not its header nor text beside it', () => {
    expect(
      boxTable(
        ['id', 'price', 'when'],
        [
          ['7', '1,234.50', '2026-02-01'],
          ['1234', '', '2026-02-02'],
          ['12', '-3%', 'n/a'],
        ],
        [],
        false,
      ).split('\n'),
    ).toEqual([
      '┌──────┬──────────┬────────────┐',
      '│ id   │ price    │ when       │',
      '├──────┼──────────┼────────────┤',
      '│    7 │ 1,234.50 │ 2026-02-01 │',
      '│ 1234 │          │ 2026-02-02 │',
      '│   12 │      -3% │ n/a        │',
      '└──────┴──────────┴────────────┘',
    ]);
  });

  it('keeps a column as wide as asked, or as its widest line when that is wider: nothing is cut', () => {
    expect(boxTable([], [['a', 'bb']], [6, 3], false)).toBe(['┌──────┬────┐', '│ a    │ bb │', '└──────┴────┘'].join('\n'));
  });

  it('measures colour codes as nothing: a bold header lines up with its rows', () => {
    const lines = boxTable(['\u001b[1mid\u001b[22m'], [['12345']], [], false).split('\n');
    expect(new Set(lines.map((line) => stringWidth(line)))).toEqual(new Set([9]));
  });

  it('draws nothing for no header and no rows, and a header alone without a rule', () => {
    expect(boxTable([], [], [], false)).toBe('');
    expect(boxTable(['id'], [], [], false)).toBe(['┌────┐', '│ id │', '└────┘'].join('\n'));
  });

  it('draws 20,000 rows of wrapped cells, every line as wide as the next', () => {
    const rows = Array.from({ length: 20_000 }, (_, at) => [`${at}`, 'Чай Greenfield\nзелёный', '232.27', '2026-11-25T06:00:00Z']);
    const lines = boxTable(['id', 'title', 'price', 'observed'], rows, [8, 18, 9, 23], true).split('\n');
    expect(lines).toHaveLength(2 + 20_000 * 3 + 1);
    expect(new Set(lines.map((line) => stringWidth(line)))).toEqual(new Set([63]));
  });
});
