import { describe, expect, it } from 'vitest';
import {
  formValuesOf,
  NEW_PACKAGE_DEFAULTS,
  slugify,
  toPackageBody,
  validatePackageForm,
} from './package-form';

const filled = {
  ...NEW_PACKAGE_DEFAULTS,
  name: ' Medicare Pro ',
  slug: 'medicare-pro',
  price: '19.995',
  leadsPerDay: '10',
  commissionPct: '15',
};

describe('package form', () => {
  it('starts with the spec defaults', () => {
    expect(NEW_PACKAGE_DEFAULTS).toMatchObject({
      category: 'MEDICARE',
      enrollmentOnly: false,
      crm: true,
      callRecording: true,
      followUpMessage: false,
      active: true,
    });
  });

  it('sends the price as rounded cents and whole numbers for leads and commission', () => {
    expect(toPackageBody(filled)).toEqual({
      name: 'Medicare Pro',
      slug: 'medicare-pro',
      priceMonthlyCents: 2000,
      leadsPerDay: 10,
      commissionPct: 15,
      category: 'MEDICARE',
      enrollmentOnly: false,
      services: { crm: true, callRecording: true, followUpMessage: false },
      active: true,
    });
    expect(toPackageBody({ ...filled, price: '0.29' }).priceMonthlyCents).toBe(29);
    expect(toPackageBody({ ...filled, price: '1.005' }).priceMonthlyCents).toBe(
      Math.round(1.005 * 100),
    );
  });

  it('requires name, slug, price, leads per day and commission', () => {
    expect(validatePackageForm(NEW_PACKAGE_DEFAULTS)).toEqual({
      name: 'Name is required',
      slug: 'Slug is required',
      price: 'Price is required',
      leadsPerDay: 'Leads per day is required',
      commissionPct: 'Commission is required',
    });
    expect(validatePackageForm(filled)).toEqual({});
  });

  it('refuses fractions for leads and commission, a negative price and a bad slug', () => {
    const errors = validatePackageForm({
      ...filled,
      slug: 'Medicare Pro',
      price: '-1',
      leadsPerDay: '2.5',
      commissionPct: '101',
    });
    expect(Object.keys(errors).sort()).toEqual(['commissionPct', 'leadsPerDay', 'price', 'slug']);
    expect(validatePackageForm({ ...filled, leadsPerDay: '0' }).leadsPerDay).toBeDefined();
    expect(validatePackageForm({ ...filled, commissionPct: '0' }).commissionPct).toBeUndefined();
  });

  it('round-trips an existing package and suggests slugs from names', () => {
    const pkg = {
      id: 1,
      ...toPackageBody({ ...filled, price: '299.99' }),
    };
    expect(formValuesOf(pkg).price).toBe('299.99');
    expect(toPackageBody(formValuesOf(pkg))).toEqual(toPackageBody({ ...filled, price: '299.99' }));
    expect(slugify('Medicare Pro Plus!')).toBe('medicare-pro-plus');
    expect(slugify('  Final   Expense — Élite ')).toBe('final-expense-elite');
  });
});
