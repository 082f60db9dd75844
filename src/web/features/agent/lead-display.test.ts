import { describe, expect, it } from 'vitest';
import { LEAD_STATUSES } from '../../../shared/domain';
import { leadStatusLabel } from '../../../shared/format';
import { leadFullName, leadLocation } from './lead-display';

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
