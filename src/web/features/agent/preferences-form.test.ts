import { describe, expect, it } from 'vitest';
import { parseAge, parseCities, toFormState, toggle, toPreferences } from './preferences-form';

describe('preferences form', () => {
  it('splits cities on commas, trims them and drops blanks', () => {
    expect(parseCities(' Miami ,Dallas,, , Fort Worth ,')).toEqual([
      'Miami',
      'Dallas',
      'Fort Worth',
    ]);
    expect(parseCities('')).toEqual([]);
    expect(parseCities(' , ')).toEqual([]);
  });

  it('reads an empty age as null and a number as that number', () => {
    expect(parseAge('')).toBeNull();
    expect(parseAge('  ')).toBeNull();
    expect(parseAge('65')).toBe(65);
  });

  it('round-trips stored preferences through the form', () => {
    const prefs = {
      states: ['FL', 'TX'],
      cities: ['Miami', 'Fort Worth'],
      ageMin: null,
      ageMax: 80,
      categories: ['ACA' as const],
    };
    const form = toFormState(prefs);
    expect(form).toEqual({
      states: ['FL', 'TX'],
      cities: 'Miami, Fort Worth',
      ageMin: '',
      ageMax: '80',
      categories: ['ACA'],
    });
    expect(toPreferences(form)).toEqual(prefs);
  });

  it('toggles an item in and out of a list', () => {
    expect(toggle(['TX'], 'FL')).toEqual(['TX', 'FL']);
    expect(toggle(['TX', 'FL'], 'TX')).toEqual(['FL']);
  });
});
