import { describe, expect, it } from 'vitest';
import { isBlankRow, mapLeadHeader, validateLead, validateLeadRow } from './lead-row.service';

describe('validateLead (one lead as named values)', () => {
  it('answers the lead to store: trimmed, empty optional values null, codes normalised', () => {
    expect(
      validateLead({
        externalId: ' ext-1 ',
        firstName: 'Ann',
        lastName: '',
        email: ' Ann@Example.com',
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
      timeZone: 'America/Chicago',
      zip: null,
      consentAt: null,
      consentText: null,
      trustedFormCertUrl: null,
      jornayaLeadId: null,
      consentIp: null,
    });
  });

  it('lists every problem, in the same words as a CSV row error', () => {
    expect(validateLead({ email: 'not-an-email', state: 'ZZ', age: '17' })).toBe(
      "Invalid email: 'not-an-email'; Missing city; Invalid state: 'ZZ'; " +
        "Age must be an integer from 18 to 120: '17'; Missing category",
    );
    expect(
      validateLead({
        email: 'a@example.com',
        city: 'x'.repeat(201),
        state: 'TX',
        age: '65',
        category: 'ACA',
      }),
    ).toBe('city is longer than 200 characters');
    expect(validateLead({ city: 'Austin', state: 'TX', age: '65', category: 'ACA' })).toBe(
      'Missing phone and email: a lead needs at least one of them',
    );
    expect(
      validateLead({
        firstName: null,
        phone: '(212) 555-0100',
        city: 'Austin',
        state: 'tx',
        age: '120',
        category: 'aca',
      }),
    ).toMatchObject({
      firstName: null,
      age: 120,
    });
  });
});

describe('the places leads come from', () => {
  const base = { email: 'a@example.com', city: 'Here', age: '67', category: 'MEDICARE' };

  it('takes Washington DC and Puerto Rico, by code or name, with their own time zones', () => {
    expect(validateLead({ ...base, state: 'DC' })).toMatchObject({
      state: 'DC',
      timeZone: 'America/New_York',
    });
    expect(validateLead({ ...base, state: 'District of Columbia', zip: '20001' })).toMatchObject({
      state: 'DC',
      zip: '20001',
    });
    expect(validateLead({ ...base, state: 'puerto rico' })).toMatchObject({
      state: 'PR',
      timeZone: 'America/Puerto_Rico',
    });
  });

  it('refuses a ZIP of another state, naming both (the ZIP sets the calling hours)', () => {
    expect(validateLead({ ...base, state: 'WI', zip: '63005' })).toBe('Zip 63005 is in MO, not WI');
    expect(validateLead({ ...base, state: 'MO', zip: '63005-1234' })).toMatchObject({
      zip: '63005',
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
      zip: -1,
      consentAt: -1,
      consentText: -1,
      trustedFormCertUrl: -1,
      jornayaLeadId: -1,
      consentIp: -1,
    });
    if (typeof columns === 'string') throw new Error(columns);
    expect(
      validateLeadRow(['n', 'ACA', '70', 'NY', 'Albany', '212 555 0101', 'Bo'], columns),
    ).toEqual({
      externalId: null,
      firstName: 'Bo',
      lastName: null,
      phone: '+12125550101',
      email: null,
      city: 'Albany',
      state: 'NY',
      age: 70,
      category: 'ACA',
      timeZone: 'America/New_York',
      zip: null,
      consentAt: null,
      consentText: null,
      trustedFormCertUrl: null,
      jornayaLeadId: null,
      consentIp: null,
    });
  });

  it('normalizes the phone to E.164, reads a ZIP and its time zone, and the consent columns', () => {
    const columns = mapLeadHeader([
      'state',
      'city',
      'age',
      'category',
      'phone',
      'Zip Code',
      'consent_at',
      'TrustedForm Cert URL',
      'jornaya lead id',
      'consentIp',
      'consentText',
    ]);
    if (typeof columns === 'string') throw new Error(columns);
    const row = (phone: string, zip: string, at: string) =>
      validateLeadRow(
        [
          'FL',
          'Pensacola',
          '70',
          'ACA',
          phone,
          zip,
          at,
          'https://c/1',
          'J1',
          '203.0.113.9',
          'I agree',
        ],
        columns,
      );
    expect(row('+1 (212) 555-0101', '32501-0001', '2026-03-01 10:00:00Z')).toMatchObject({
      phone: '+12125550101',
      zip: '32501',
      timeZone: 'America/Chicago',
      consentAt: '2026-03-01T10:00:00.000Z',
      trustedFormCertUrl: 'https://c/1',
      jornayaLeadId: 'J1',
      consentIp: '203.0.113.9',
      consentText: 'I agree',
    });
    expect(row('2125550101', '', '')).toMatchObject({ zip: null, timeZone: 'America/New_York' });
    expect(row('555-0100', '1234', 'soon')).toBe(
      "Invalid phone: '555-0100' is not a valid phone number (a US number has 10 digits and a real area code); " +
        "Invalid zip: '1234' (expected 5 digits or ZIP+4); " +
        "Invalid consentAt: 'soon' (expected an ISO 8601 date-time such as 2026-03-01T14:30:00Z)",
    );
    // an area code that does not exist, and numbers libphonenumber reads outside the fast path
    expect(typeof row('(123) 456-7890', '', '')).toBe('string');
    expect(row('+44 20 7946 0958', '', '')).toMatchObject({ phone: '+442079460958' });
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
