import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PackageBody, packagePayload } from '../../../shared/contracts/packages';
import {
  formValuesOf,
  NEW_PACKAGE_DEFAULTS,
  type PackageFormValues,
  packageFormResolver,
  slugify,
} from './package-form';

const filled: PackageFormValues = {
  ...NEW_PACKAGE_DEFAULTS,
  name: ' Medicare Pro ',
  slug: 'medicare-pro',
  price: '19.995',
  leadsPerDay: '10',
  commissionPct: '15',
};

const body: PackageBody = {
  name: 'Medicare Pro',
  slug: 'medicare-pro',
  priceMonthlyCents: 2000,
  leadsPerDay: 10,
  commissionPct: 15,
  category: 'MEDICARE',
  enrollmentOnly: false,
  services: { crm: true, callRecording: true, followUpMessage: false },
  active: true,
  pricing: 'SUBSCRIPTION',
  perLeadCents: null,
};

/** The same package, paid per lead from the agents' wallets. */
const perLeadFilled: PackageFormValues = {
  ...filled,
  pricing: 'PER_LEAD',
  price: '',
  perLead: '0.755',
};
const perLeadBody: PackageBody = {
  ...body,
  pricing: 'PER_LEAD',
  priceMonthlyCents: 0,
  perLeadCents: 76,
};

/** What the dialog's resolver makes of the values: the body to send, or a message per field. */
async function check(values: PackageFormValues) {
  const result = await packageFormResolver(values, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  const errors = Object.fromEntries(
    Object.entries(result.errors).map(([field, error]) => [field, error?.message]),
  );
  return { body: Object.keys(errors).length ? null : (result.values as PackageBody), errors };
}

// what the package routes accept (the body, and a pay-per-lead package's price per lead)
const serverAccepts = (sent: PackageBody) => packagePayload.safeParse(sent).success;

describe('package form', () => {
  it('starts with the spec defaults', () => {
    expect(NEW_PACKAGE_DEFAULTS).toMatchObject({
      pricing: 'SUBSCRIPTION',
      category: 'MEDICARE',
      enrollmentOnly: false,
      services: { crm: true, callRecording: true, followUpMessage: false },
      active: true,
    });
  });

  it('turns the typed values into the request body: rounded cents, whole numbers, trimmed text', async () => {
    const { body: sent, errors } = await check(filled);
    expect(errors).toEqual({});
    expect(sent).toEqual(body);
    expect(serverAccepts(sent as PackageBody)).toBe(true);
    expect((await check({ ...filled, price: '0.29' })).body?.priceMonthlyCents).toBe(29);
    expect((await check({ ...filled, price: '1.005' })).body?.priceMonthlyCents).toBe(
      Math.round(1.005 * 100),
    );
  });

  it('requires name, slug, price, leads per day and commission', async () => {
    expect((await check(NEW_PACKAGE_DEFAULTS)).errors).toEqual({
      name: 'Name is required',
      slug: 'Slug is required',
      price: 'Price is required',
      leadsPerDay: 'Leads per day is required',
      commissionPct: 'Commission is required',
    });
    expect((await check({ ...filled, name: '   ' })).errors).toEqual({ name: 'Name is required' });
  });

  // each case: what the admin types, the body the server would get, and the message shown
  const refused: [string, Partial<PackageFormValues>, Partial<PackageBody>, string][] = [
    [
      'a name over 120 characters',
      { name: 'N'.repeat(121) },
      { name: 'N'.repeat(121) },
      'Name can be at most 120 characters',
    ],
    [
      '0 leads per day',
      { leadsPerDay: '0' },
      { leadsPerDay: 0 },
      'Leads per day must be at least 1',
    ],
    [
      'more than 10,000 leads per day',
      { leadsPerDay: '10001' },
      { leadsPerDay: 10_001 },
      'Leads per day can be at most 10,000',
    ],
    [
      'a fraction of a lead',
      { leadsPerDay: '2.5' },
      { leadsPerDay: 2.5 },
      'Leads per day must be a whole number',
    ],
    ['a negative price', { price: '-1' }, { priceMonthlyCents: -100 }, 'Price cannot be negative'],
    [
      'a price over $1,000,000',
      { price: '1000000.01' },
      { priceMonthlyCents: 100_000_001 },
      'Price can be at most $1,000,000',
    ],
    [
      'a commission over 100%',
      { commissionPct: '101' },
      { commissionPct: 101 },
      'Commission can be at most 100%',
    ],
    [
      'a slug with spaces and capitals',
      { slug: 'Medicare Pro' },
      { slug: 'Medicare Pro' },
      'Slug may hold lowercase letters, digits and single dashes',
    ],
    [
      'a slug over 80 characters',
      { slug: 's'.repeat(81) },
      { slug: 's'.repeat(81) },
      'Slug can be at most 80 characters',
    ],
  ];

  it.each(refused)('refuses %s, as the server does', async (_case, typed, sent, message) => {
    expect(serverAccepts({ ...body, ...sent })).toBe(false);
    const { body: accepted, errors } = await check({ ...filled, ...typed });
    expect(accepted).toBeNull();
    expect(Object.values(errors)).toEqual([message]);
  });

  it('accepts the limits the server accepts', async () => {
    const edges: Partial<PackageFormValues>[] = [
      { name: 'N'.repeat(120) },
      { slug: 's'.repeat(80) },
      { leadsPerDay: '1' },
      { leadsPerDay: '10000' },
      { price: '0' },
      { price: '1000000' },
      { commissionPct: '0' },
      { commissionPct: '100' },
    ];
    for (const typed of edges) {
      const { body: sent, errors } = await check({ ...filled, ...typed });
      expect(errors, JSON.stringify(typed)).toEqual({});
      expect(serverAccepts(sent as PackageBody)).toBe(true);
    }
  });

  it('agrees with the server on any leads per day, commission, price and name length', async () => {
    const number = fc.oneof(
      fc.integer({ min: -20_000, max: 20_000 }),
      fc.double({ min: -200, max: 200, noNaN: true }),
    );
    await fc.assert(
      fc.asyncProperty(number, async (n) => {
        const leads = await check({ ...filled, leadsPerDay: String(n) });
        expect(leads.body !== null).toBe(serverAccepts({ ...body, leadsPerDay: n }));
        const commission = await check({ ...filled, commissionPct: String(n) });
        expect(commission.body !== null).toBe(serverAccepts({ ...body, commissionPct: n }));
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.double({ min: -2_000_000, max: 2_000_000, noNaN: true }), async (d) => {
        const { body: sent } = await check({ ...filled, price: String(d) });
        const cents = Math.round(d * 100);
        expect(sent !== null).toBe(serverAccepts({ ...body, priceMonthlyCents: cents }));
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (name) => {
        const { body: sent } = await check({ ...filled, name });
        expect(sent !== null).toBe(serverAccepts({ ...body, name }));
      }),
    );
  });

  it('sends a pay-per-lead package with its price per lead in cents and no monthly price', async () => {
    const { body: sent, errors } = await check(perLeadFilled);
    expect(errors).toEqual({});
    expect(sent).toEqual(perLeadBody);
    expect(serverAccepts(sent as PackageBody)).toBe(true);
    // a monthly price typed before switching to pay per lead is not sent
    expect((await check({ ...perLeadFilled, price: '99' })).body).toEqual(perLeadBody);
    // nor a price per lead typed before switching back to a subscription
    expect((await check({ ...filled, perLead: 'abc' })).body).toEqual(body);
  });

  it('requires a price per lead for pay per lead, and not the monthly price', async () => {
    expect((await check({ ...perLeadFilled, perLead: ' ' })).errors).toEqual({
      perLead: 'Price per lead is required',
    });
    expect(serverAccepts({ ...perLeadBody, perLeadCents: null })).toBe(false);
  });

  const refusedPerLead: [string, string, number, string][] = [
    ['a free lead', '0', 0, 'Price per lead must be at least $0.01'],
    ['a lead over $10,000', '10000.01', 1_000_001, 'Price per lead can be at most $10,000.00'],
    ['a negative price', '-2', -200, 'Price per lead must be at least $0.01'],
  ];

  it.each(refusedPerLead)(
    'refuses %s per lead, as the server does',
    async (_case, typed, cents, message) => {
      expect(serverAccepts({ ...perLeadBody, perLeadCents: cents })).toBe(false);
      const { body: accepted, errors } = await check({ ...perLeadFilled, perLead: typed });
      expect(accepted).toBeNull();
      expect(errors).toEqual({ perLead: message });
    },
  );

  it('agrees with the server on any price per lead', async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: -100, max: 20_000, noNaN: true }), async (d) => {
        const { body: sent } = await check({ ...perLeadFilled, perLead: String(d) });
        const cents = Math.round(d * 100);
        expect(sent !== null).toBe(serverAccepts({ ...perLeadBody, perLeadCents: cents }));
      }),
    );
  });

  it('round-trips an existing package and suggests slugs from names', async () => {
    const pkg = { id: 1, ...body, priceMonthlyCents: 29_999, fromPerLeadCents: null };
    expect(formValuesOf(pkg).price).toBe('299.99');
    expect((await check(formValuesOf(pkg))).body).toEqual({ ...body, priceMonthlyCents: 29_999 });
    const perLead = { id: 2, ...perLeadBody, perLeadCents: 1_250, fromPerLeadCents: 900 };
    expect(formValuesOf(perLead)).toMatchObject({
      pricing: 'PER_LEAD',
      perLead: '12.50',
      price: '',
    });
    expect((await check(formValuesOf(perLead))).body).toEqual({
      ...perLeadBody,
      perLeadCents: 1_250,
    });
    expect(slugify('Medicare Pro Plus!')).toBe('medicare-pro-plus');
    expect(slugify('  Final   Expense — Élite ')).toBe('final-expense-elite');
    expect(slugify('x'.repeat(100))).toHaveLength(80);
  });
});
