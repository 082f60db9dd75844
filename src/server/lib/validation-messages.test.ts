import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { packageBody } from '../../shared/contracts/packages';
import { fieldErrors, type ValidationIssue, validationSummary } from './validation-messages';

/** What fastify-type-provider-zod hands the error handler for a failed parse. */
function issuesOf(schema: z.ZodType, input: unknown): ValidationIssue[] {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to fail');
  return result.error.issues.map(({ code, path, message, ...params }) => ({
    keyword: code,
    instancePath: `/${path.join('/')}`,
    message,
    params,
  }));
}

describe('fieldErrors', () => {
  const body = z.object({
    name: z.string().min(1).max(5),
    email: z.email(),
    leadsPerDay: z.number().int().min(1).max(10_000),
    tags: z.array(z.string()).max(1),
    kind: z.enum(['A', 'B']),
  });
  const valid = { name: 'Ann', email: 'a@b.co', leadsPerDay: 3, tags: [], kind: 'A' };
  const cases: [object, string, string][] = [
    [{ name: undefined }, 'name', 'Name is required'],
    [{ name: '' }, 'name', 'Name is required'],
    [{ name: 'abcdef' }, 'name', 'Name must be at most 5 characters'],
    [{ email: 'nope' }, 'email', 'Email must be a valid email address'],
    [{ leadsPerDay: '3' }, 'leadsPerDay', 'Leads per day must be a number'],
    [{ leadsPerDay: 0 }, 'leadsPerDay', 'Leads per day must be at least 1'],
    [{ leadsPerDay: 10_001 }, 'leadsPerDay', 'Leads per day must be at most 10,000'],
    [{ tags: ['a', 'b'] }, 'tags', 'Tags must have at most 1 item'],
    [{ kind: 'C' }, 'kind', 'Kind must be one of: A, B'],
  ];
  for (const [change, field, message] of cases) {
    it(`${JSON.stringify(change)} -> ${message}`, () => {
      expect(fieldErrors(issuesOf(body, { ...valid, ...change }))).toEqual([{ field, message }]);
    });
  }

  it("keeps a contract's own message and names nested fields by their path", () => {
    const errors = fieldErrors(
      issuesOf(z.object({ cities: z.array(z.string().max(2, 'A city is short')) }), {
        cities: ['ok', 'too long'],
      }),
    );
    expect(errors).toEqual([{ field: 'cities.1', message: 'A city is short' }]);
  });

  it('never answers in the validator wording for the package contract', () => {
    const errors = fieldErrors(issuesOf(packageBody, { name: 5, leadsPerDay: -1, services: {} }));
    expect(errors.length).toBeGreaterThan(2);
    for (const e of errors) expect(e.message).not.toMatch(/Invalid|Too (small|big)|expected/);
  });
});

describe('validationSummary', () => {
  it('is the first problem as a sentence, with how many more', () => {
    expect(validationSummary([{ field: 'a', message: 'A is required' }])).toBe('A is required.');
    expect(
      validationSummary([
        { field: 'a', message: 'A is required' },
        { field: 'b', message: 'B is required' },
        { field: 'c', message: 'C is required' },
      ]),
    ).toBe('A is required. (and 2 more problems)');
  });
});
