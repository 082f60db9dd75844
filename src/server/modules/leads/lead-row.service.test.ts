import { describe, expect, it } from 'vitest';
import { isBlankRow, mapLeadHeader, validateLead, validateLeadRow } from './lead-row.service';

describe('validateLead (one lead as named values)', () => {
  it('answers the lead to store: trimmed, empty optional values null, codes normalised', () => {
    expect(
      validateLead({
        externalId: ' ext-1 ',
        firstName: 'Ann',
        lastName: '',
        email: 'ann@example.com',
        city: ' Austin ',
        state: 'texas',
        age: '65',
        category: 'final expense',
      }),
    ).toEqual({
      externalId: 'ext-1',
      firstName: 'Ann',
      lastName: null,
      phone: null,
      email: 'ann@example.com',
      city: 'Austin',
      state: 'TX',
      age: 65,
      category: 'FINAL_EXPENSE',
    });
  });

  it('lists every problem, in the same words as a CSV row error', () => {
    expect(validateLead({ email: 'not-an-email', state: 'ZZ', age: '17' })).toBe(
      "Invalid email: 'not-an-email'; Missing city; Invalid state: 'ZZ'; " +
        "Age must be an integer from 18 to 120: '17'; Missing category",
    );
    expect(validateLead({ city: 'x'.repeat(201), state: 'TX', age: '65', category: 'ACA' })).toBe(
      'city is longer than 200 characters',
    );
    expect(
      validateLead({ firstName: null, city: 'Austin', state: 'tx', age: '120', category: 'aca' }),
    ).toMatchObject({
      firstName: null,
      age: 120,
    });
  });
});

describe('mapLeadHeader and validateLeadRow (a CSV row by its columns)', () => {
  it('finds the columns by name, aliases and spelling variants, ignoring unknown ones', () => {
    const columns = mapLeadHeader([
      'Notes',
      'Category',
      'AGE',
      'state',
      'City',
      'Phone Number',
      'first_name',
    ]);
    expect(columns).toEqual({
      externalId: -1,
      firstName: 6,
      lastName: -1,
      phone: 5,
      email: -1,
      city: 4,
      state: 3,
      age: 2,
      category: 1,
    });
    if (typeof columns === 'string') throw new Error(columns);
    expect(validateLeadRow(['n', 'ACA', '70', 'NY', 'Albany', '555', 'Bo'], columns)).toEqual({
      externalId: null,
      firstName: 'Bo',
      lastName: null,
      phone: '555',
      email: null,
      city: 'Albany',
      state: 'NY',
      age: 70,
      category: 'ACA',
    });
  });

  it('says what is wrong with a header', () => {
    expect(mapLeadHeader(['city', 'age'])).toBe(
      'Missing required columns: state, category (the header row must name state, city, age and category)',
    );
    expect(mapLeadHeader(['state', 'city', 'age', 'category', 'E-mail', 'email'])).toBe(
      "The header names the email column twice ('E-mail' and 'email')",
    );
  });

  it('tells a blank row (white space only) from a row with a value', () => {
    expect(isBlankRow(['', ' ', '\t', '\u00a0'])).toBe(true);
    expect(isBlankRow(['', ' x '])).toBe(false);
  });
});
