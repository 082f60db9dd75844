/**
 * A request that fails its schema is answered field by field, in sentences a user understands
 * ("Minimum age must be at least 18"), never in the validator's words ("Too small: expected
 * number to be >=18"): the screens put each message under its field and the whole in a toast.
 */

/** One failed field: `field` is the path into the body, query or params ("ageMin", "cities.2"). */
export interface FieldError {
  field: string;
  message: string;
}

/** What the zod validator reports per issue (fastify-type-provider-zod's shape). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Names a user reads for the fields whose key is not already plain words. */
const FIELD_LABELS: Record<string, string> = {
  ageMin: 'Minimum age',
  ageMax: 'Maximum age',
  leadsPerDay: 'Leads per day',
  priceMonthlyCents: 'Price',
  commissionPct: 'Commission',
  enrollmentOnly: 'Enrollment only',
  packageId: 'Package',
  userId: 'Agent',
  leadId: 'Lead',
  firstName: 'First name',
  lastName: 'Last name',
  q: 'Search',
};

/** The validator's own wording, which a contract's message never starts with. */
const VALIDATOR_WORDING =
  /^(Invalid (input|option|string|format|email|url|uuid|date|datetime)|Too (small|big)|Unrecognized key)/;

export function fieldLabel(field: string): string {
  const key =
    field
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .pop() ?? '';
  if (key === '') return 'The request';
  const label = FIELD_LABELS[key] ?? key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return label.charAt(0).toUpperCase() + label.slice(1);
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** The issue as a sentence about its field. */
function sentence(issue: ValidationIssue, label: string): string {
  const p = issue.params ?? {};
  if (issue.message && !VALIDATOR_WORDING.test(issue.message)) return issue.message;
  switch (issue.keyword) {
    case 'invalid_type':
      // zod reports the input's type in its own message only ("..., received undefined")
      if (/received undefined$/.test(issue.message ?? '')) return `${label} is required`;
      return `${label} must be ${TYPE_WORDS[String(p.expected)] ?? String(p.expected)}`;
    case 'too_small': {
      const min = Number(p.minimum);
      const shown = min.toLocaleString('en-US');
      if (p.origin === 'string')
        return min <= 1 ? `${label} is required` : `${label} must be at least ${min} characters`;
      if (p.origin === 'array')
        return `${label} must have at least ${min} item${min === 1 ? '' : 's'}`;
      return p.inclusive === false
        ? `${label} must be more than ${shown}`
        : `${label} must be at least ${shown}`;
    }
    case 'too_big': {
      const max = Number(p.maximum);
      const shown = max.toLocaleString('en-US');
      if (p.origin === 'string') return `${label} must be at most ${max} characters`;
      if (p.origin === 'array')
        return `${label} must have at most ${max} item${max === 1 ? '' : 's'}`;
      return p.inclusive === false
        ? `${label} must be less than ${shown}`
        : `${label} must be at most ${shown}`;
    }
    case 'invalid_value':
      return Array.isArray(p.values)
        ? `${label} must be one of: ${p.values.map(String).join(', ')}`
        : `${label} is not an accepted value`;
    case 'invalid_format':
      return p.format === 'email'
        ? `${label} must be a valid email address`
        : `${label} is not in the expected format`;
    case 'unrecognized_keys':
      return Array.isArray(p.keys)
        ? `Unknown field: ${p.keys.map(String).join(', ')}`
        : 'Unknown field';
    default:
      return `${label} is not valid`;
  }
}

/** Each failed field with its sentence, in the order the validator found them. */
export function fieldErrors(issues: readonly ValidationIssue[]): FieldError[] {
  return issues.map((issue) => {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return { field, message: sentence(issue, fieldLabel(field)) };
  });
}

/** The answer's message: the first problem as a sentence, and how many more there are. */
export function validationSummary(errors: readonly FieldError[]): string {
  if (errors.length === 0) return 'The request is not valid.';
  const more = errors.length - 1;
  const first = errors[0].message.replace(/[.]?$/, '.');
  return more === 0 ? first : `${first} (and ${more} more problem${more === 1 ? '' : 's'})`;
}
