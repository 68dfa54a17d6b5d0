import { describe, expect, it } from 'vitest';
import {
  durationSeconds,
  isoTimestamp,
  looseBoolean,
  normalizeCustomer,
  normalizeProject,
  normalizeProjectList,
  unwrapData,
} from '../../../src/time/normalize.js';

// The example project of the time tracker's public docs, verbatim.
const EXAMPLE = {
  data: {
    id: 60,
    customer_id: 3,
    customer_name: 'My Customer',
    name: 'New Project',
    description: null,
    date_created: '2019-02-14T02:59:42-0200',
    date_changed: null,
    privacy: 2,
    privacy_s: 'private',
    required_task: 0,
    created_by: 1,
    deleted_by: null,
    billable: 0,
    bill_by: 'project',
    active: true,
    status: 'active',
    template: false,
    is_member: true,
    is_manager: true,
    rate: null,
    value_total: null,
    time_total: '00:00:00',
    total_members: 1,
    total_active_tasks: 0,
  },
};

describe('normalizeProject', () => {
  it('turns the public example into one shape', () => {
    const project = normalizeProject(unwrapData(EXAMPLE));
    expect(project).toMatchObject({
      id: 60,
      name: 'New Project',
      customer_name: 'My Customer',
      description: null,
      date_created: '2019-02-14T02:59:42-02:00',
      date_updated: null,
      privacy: 'private',
      required_task: false,
      billable: false,
      active: true,
      status: 'active',
      template: false,
      rate: null,
      value_total: null,
      time_total: '00:00:00',
      time_total_seconds: 0,
    });
    expect(project).not.toHaveProperty('date_changed');
  });

  it('reads both boolean spellings, numeric strings and date_updated', () => {
    const project = normalizeProject({
      id: '61',
      name: 'x',
      active: 0,
      status: 'archived',
      billable: '1',
      required_task: 'true',
      template: 'false',
      is_manager: 1,
      date_updated: '2023-10-02T07:00:00+0530',
      rate: '120.50',
      value_total: '4800.00',
      privacy: 1,
      time_total: '101:00:59',
    });
    expect(project).toMatchObject({
      id: 61,
      active: false,
      status: 'archived',
      billable: true,
      required_task: true,
      template: false,
      is_manager: true,
      date_updated: '2023-10-02T07:00:00+05:30',
      rate: 120.5,
      value_total: 4800,
      privacy: 'public',
      time_total_seconds: 101 * 3600 + 59,
    });
  });

  it('prefers date_updated and falls back to date_changed', () => {
    expect(normalizeProject({ id: 1, name: 'a', date_changed: '2020-01-01T00:00:00-0200' }).date_updated).toBe('2020-01-01T00:00:00-02:00');
    expect(
      normalizeProject({ id: 1, name: 'a', date_updated: '2021-01-01T00:00:00Z', date_changed: '2020-01-01T00:00:00Z' }).date_updated,
    ).toBe('2021-01-01T00:00:00Z');
  });

  it('derives the status from active when the service leaves it out, and fills missing fields with null', () => {
    const project = normalizeProject({ id: 2, name: 'b', active: '0' });
    expect(project.status).toBe('archived');
    expect(project).toMatchObject({ customer_name: null, billable: null, rate: null, time_total: null, time_total_seconds: null });
  });

  it('gives every project the same fields in the same order, whatever spelling the service used', () => {
    const example = normalizeProject(unwrapData(EXAMPLE));
    const other = normalizeProject({
      ...EXAMPLE.data,
      date_changed: undefined,
      date_updated: '2020-01-01T00:00:00-0200',
      active: 1,
      billable: true,
    });
    expect(Object.keys(other)).toEqual(Object.keys(example));
    expect(Object.keys(example).slice(0, 3)).toEqual(['id', 'name', 'customer_id']);
  });

  it('keeps fields it does not know', () => {
    expect(normalizeProject({ id: 3, name: 'c', color: '#fff' }).color).toBe('#fff');
  });

  it('refuses what is not a project', () => {
    expect(() => normalizeProject([1])).toThrow(TypeError);
    expect(() => normalizeProjectList({ data: { id: 1 } })).toThrow(TypeError);
  });

  it('reads a list with and without the envelope', () => {
    expect(normalizeProjectList({ data: [{ id: 1, name: 'a' }] })).toHaveLength(1);
    expect(
      normalizeProjectList([
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ]).map((p) => p.id),
    ).toEqual([1, 2]);
  });
});

describe('value helpers', () => {
  it('looseBoolean keeps null and unknown values', () => {
    expect([1, '1', true, 'true', 0, '0', false, 'false'].map(looseBoolean)).toEqual([true, true, true, true, false, false, false, false]);
    expect(looseBoolean(null)).toBeNull();
    expect(looseBoolean('maybe')).toBe('maybe');
  });

  it('isoTimestamp puts a colon into offsets and leaves good ones alone', () => {
    expect(isoTimestamp('2019-02-14T02:59:42-0200')).toBe('2019-02-14T02:59:42-02:00');
    expect(isoTimestamp('2019-02-14 02:59:42+0100')).toBe('2019-02-14T02:59:42+01:00');
    expect(isoTimestamp('2019-02-14T02:59:42-02:00')).toBe('2019-02-14T02:59:42-02:00');
    expect(isoTimestamp('2019-02-14T02:59:42z')).toBe('2019-02-14T02:59:42Z');
    expect(isoTimestamp(null)).toBeNull();
    expect(isoTimestamp('yesterday')).toBe('yesterday');
  });

  it('durationSeconds reads HH:MM:SS with hours past a day', () => {
    expect(durationSeconds('02:30:05')).toBe(9005);
    expect(durationSeconds('101:00:59')).toBe(363659);
    expect(durationSeconds('1:99:00')).toBeNull();
    expect(durationSeconds(null)).toBeNull();
  });

  it('normalizeCustomer makes the id a number', () => {
    expect(normalizeCustomer({ id: '3', name: 'Müller & Söhne' })).toEqual({ id: 3, name: 'Müller & Söhne' });
  });
});
