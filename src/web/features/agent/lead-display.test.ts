import { describe, expect, it } from 'vitest';
import { LEAD_STATUSES } from '../../../shared/domain';
import { leadStatusLabel } from '../../../shared/format';
import { leadFullName, leadLocation, searchLeads } from './lead-search';

const leads = [
  { id: 1, firstName: 'Maria', lastName: 'Lopez', phone: '555-0101', email: 'maria@example.com' },
  { id: 2, firstName: 'John', lastName: 'Smith', phone: '555-0202', email: 'jsmith@mail.test' },
  { id: 3, firstName: null, lastName: 'Doe', phone: null, email: null },
];
const ids = (text: string) => searchLeads(leads, text).map((l) => l.id);

describe('searchLeads', () => {
  it('matches first name, last name, phone and email, ignoring case', () => {
    expect(ids('MARIA')).toEqual([1]);
    expect(ids('smith')).toEqual([2]);
    expect(ids('0202')).toEqual([2]);
    expect(ids('@EXAMPLE.com')).toEqual([1]);
    expect(ids('doe')).toEqual([3]);
  });

  it('matches parts of a field, trims the text, and keeps every lead for blank text', () => {
    expect(ids('  555-0  ')).toEqual([1, 2]);
    expect(ids('')).toEqual([1, 2, 3]);
    expect(ids('   ')).toEqual([1, 2, 3]);
  });

  it('does not match other fields or text across fields', () => {
    expect(ids('Maria Lopez')).toEqual([]);
    expect(ids('nobody')).toEqual([]);
  });
});

describe('lead display helpers', () => {
  it('joins the name parts present and shows the location as city, state', () => {
    expect(leadFullName({ firstName: 'Maria', lastName: 'Lopez' })).toBe('Maria Lopez');
    expect(leadFullName({ firstName: null, lastName: 'Doe' })).toBe('Doe');
    expect(leadFullName({ firstName: null, lastName: null })).toBe('Unnamed lead');
    expect(leadLocation({ city: 'Miami', state: 'FL' })).toBe('Miami, FL');
  });
});

describe('leadStatusLabel', () => {
  it('names every status as the status filter shows it', () => {
    expect(LEAD_STATUSES.map(leadStatusLabel)).toEqual([
      'New',
      'Assigned',
      'Contacted',
      'In Progress',
      'Converted',
      'Invalid',
    ]);
  });
});
