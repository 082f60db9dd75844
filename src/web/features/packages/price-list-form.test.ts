import { describe, expect, it } from 'vitest';
import { priceList } from '../../../shared/contracts/packages';
import {
  emptyRow,
  moveRow,
  type PriceRuleRow,
  priceListBody,
  rowsOf,
  serverRuleErrors,
} from './price-list-form';

const row = (fields: Partial<PriceRuleRow>): PriceRuleRow => ({ ...emptyRow(), ...fields });

describe('price list editor', () => {
  it('sends the rules in their order, blanks as "any", prices in rounded cents', () => {
    const result = priceListBody([
      row({ state: 'TX', ageMin: '65', ageMax: '70', price: '30' }),
      row({ sourceId: '4', price: '12.505' }),
      row({ price: '9.99' }),
    ]);
    expect(result).toEqual({
      body: {
        rules: [
          { state: 'TX', ageMin: 65, ageMax: 70, sourceId: null, priceCents: 3000 },
          { state: null, ageMin: null, ageMax: null, sourceId: 4, priceCents: 1251 },
          { state: null, ageMin: null, ageMax: null, sourceId: null, priceCents: 999 },
        ],
      },
    });
    if ('body' in result) expect(priceList.safeParse(result.body).success).toBe(true);
  });

  it('sends an empty list: every lead then costs the price per lead', () => {
    expect(priceListBody([])).toEqual({ body: { rules: [] } });
  });

  it('says what is wrong in each row, in the words of the form', () => {
    const result = priceListBody([
      row({ price: '' }),
      row({ ageMin: '17', price: '10' }),
      row({ ageMin: '70', ageMax: '65', price: '10' }),
      row({ ageMax: '66.5', price: '0' }),
      row({ ageMin: 'abc', price: '10001' }),
      row({ price: '5' }),
    ]);
    expect(result).toEqual({
      errors: {
        0: { price: 'Price is required' },
        1: { ageMin: 'Minimum age must be at least 18' },
        2: { ageMax: 'Maximum age cannot be below minimum age' },
        3: { ageMax: 'Maximum age must be a whole number', price: 'Price must be at least $0.01' },
        4: {
          ageMin: 'Enter a number for minimum age',
          price: 'Price can be at most $10,000.00',
        },
      },
    });
  });

  it('shows a saved list as it was saved', () => {
    const rules = [
      { state: 'FL' as const, ageMin: null, ageMax: 64, sourceId: 7, priceCents: 1250 },
      { state: null, ageMin: 65, ageMax: null, sourceId: null, priceCents: 800 },
    ];
    const rows = rowsOf(rules);
    expect(rows.map(({ key: _key, ...fields }) => fields)).toEqual([
      { state: 'FL', ageMin: '', ageMax: '64', sourceId: '7', price: '12.50' },
      { state: '', ageMin: '65', ageMax: '', sourceId: '', price: '8.00' },
    ]);
    expect(priceListBody(rows)).toEqual({ body: { rules } });
  });

  it('moves a rule up or down, and not past either end', () => {
    const [a, b, c] = [row({ price: '1' }), row({ price: '2' }), row({ price: '3' })];
    expect(moveRow([a, b, c], 2, -1)).toEqual([a, c, b]);
    expect(moveRow([a, b, c], 0, 1)).toEqual([b, a, c]);
    expect(moveRow([a, b, c], 0, -1)).toEqual([a, b, c]);
    expect(moveRow([a, b, c], 2, 1)).toEqual([a, b, c]);
  });

  it('puts the server messages under their row and field', () => {
    expect(
      serverRuleErrors([
        { field: 'rules.1.sourceId', message: 'No such source' },
        { field: 'rules.1.priceCents', message: 'Too much' },
        { field: 'rules.3', message: 'A whole-row message' },
        { field: 'rules', message: 'At most 200 rules' },
      ]),
    ).toEqual({ 1: { sourceId: 'No such source', price: 'Too much' } });
  });
});
