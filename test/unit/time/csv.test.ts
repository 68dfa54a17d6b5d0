import { describe, expect, it } from 'vitest';
import { parseCustomerCsv } from '../../../src/time/csv.js';
import { tridentError } from './fixtures.js';

const problem = (text: string) => tridentError(() => parseCustomerCsv(text, 'in.csv'));

describe('parseCustomerCsv', () => {
  it('reads quotes, commas, doubled quotes, a BOM and CRLF', async () => {
    const text = '\ufeffid,name\r\n3,"Müller, ""Söhne"" & Co"\r\n4,Café Zürich\r\n';
    expect((await parseCustomerCsv(text, 'in.csv')).rows).toEqual([
      { line: 2, id: 3, name: 'Müller, "Söhne" & Co' },
      { line: 3, id: 4, name: 'Café Zürich' },
    ]);
  });

  it('takes the columns in any order, skips blank lines and counts lines across quoted newlines', async () => {
    const text = 'name,id\n"two\nlines",5\n\n   \nlast,7';
    expect((await parseCustomerCsv(text, 'in.csv')).rows).toEqual([
      { line: 2, id: 5, name: 'two\nlines' },
      { line: 6, id: 7, name: 'last' },
    ]);
  });

  it('refuses a header that is not exactly id and name', async () => {
    for (const header of ['id,title', 'id', 'id,name,extra', 'customer_id,name']) {
      const error = await problem(`${header}\n1,a\n`);
      expect(error.exitCode).toBe(2);
      expect(error.message).toContain('line 1');
    }
  });

  it('refuses ids that are not positive whole numbers, naming the line', async () => {
    for (const id of ['0', '-3', '1.5', 'abc', '', '99999999999999999999']) {
      const error = await problem(`id,name\n1,ok\n${id},x\n`);
      expect(error.exitCode).toBe(2);
      expect(error.message).toMatch(/^in\.csv line 3: id ".*" is not a positive whole number; nothing was sent$/);
    }
  });

  it('refuses empty names, duplicate ids and wrong field counts, listing further problems in the hint', async () => {
    const error = await problem('id,name\n1,"  "\n2,b\n2,c\n3,d,e\n');
    expect(error.message).toBe('in.csv line 2: the name of customer 1 is empty; nothing was sent');
    expect(error.hint).toBe('also line 4: customer 2 appears again (first on line 3); line 5: expected 2 fields (id,name), found 3');
  });

  it('refuses an empty file, a header without rows and an unclosed quote', async () => {
    expect((await problem('')).message).toContain('is empty');
    expect((await problem('id,name\n')).message).toContain('no rows');
    const unclosed = await problem('id,name\n1,"abc\n2,x\n');
    expect(unclosed.exitCode).toBe(2);
    expect(unclosed.message).toContain('line');
  });
});
