import { describe, expect, it } from 'vitest';
import { projectForm } from '../../../src/time/project-fields.js';

describe('projectForm', () => {
  it("sends only the flags given, in the service's spelling", () => {
    expect(projectForm({})).toEqual({});
    expect(
      projectForm({
        name: ' Audit ',
        active: 'false',
        privacy: 'public',
        billable: 'yes',
        requiredTask: '0',
        template: 'TRUE',
        billBy: 'user',
        rate: '95.50',
        customerId: '7',
        description: '',
      }),
    ).toEqual({
      name: 'Audit',
      active: 'false',
      privacy: '1',
      billable: 'true',
      required_task: 'false',
      template: 'true',
      bill_by: 'user',
      rate: '95.50',
      customer_id: '7',
      description: '',
    });
    expect(projectForm({ privacy: 'private', rate: '', customerId: '' })).toEqual({ privacy: '2', rate: '', customer_id: '' });
  });

  it('refuses bad values before any request (exit 2)', () => {
    for (const flags of [
      { name: '  ' },
      { active: 'maybe' },
      { privacy: 'secret' },
      { rate: '-1' },
      { rate: '1,5' },
      { customerId: 'x' },
      { billBy: 'team' },
    ]) {
      expect(() => projectForm(flags)).toThrow(expect.objectContaining({ exitCode: 2 }));
    }
  });
});
