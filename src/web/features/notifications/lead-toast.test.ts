import { describe, expect, it } from 'vitest';
import { leadToastText } from './lead-toast';

const event = {
  leadId: 7,
  name: 'Jane Doe',
  city: 'Miami',
  state: 'FL',
  category: 'FINAL_EXPENSE',
};

describe('leadToastText', () => {
  it('names the lead, its place and category', () => {
    expect(leadToastText({ ...event, more: 0 })).toEqual({
      title: 'New lead: Jane Doe',
      description: 'Miami, FL · FINAL EXPENSE',
    });
  });

  it('counts the leads of a run and names one of them', () => {
    expect(leadToastText({ ...event, more: 4 })).toEqual({
      title: '5 new leads',
      description: 'Jane Doe, Miami, FL and 4 more',
    });
  });
});
