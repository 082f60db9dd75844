import { LEAD_CATEGORIES } from '@shared/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';

const REQUIRED = ['state', 'city', 'age', 'category'];
const OPTIONAL = [
  'firstName',
  'lastName',
  'phone',
  'email',
  'externalId',
  'zip',
  'consentAt',
  'consentText',
  'trustedFormCertUrl',
  'jornayaLeadId',
  'consentIp',
];

function Columns({ names }: { names: string[] }) {
  return (
    <span className="flex flex-wrap gap-1">
      {names.map((name) => (
        <code key={name} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
          {name}
        </code>
      ))}
    </span>
  );
}

/** The columns an import file needs (docs/domain.md, Screens). */
export function CsvFormatCard() {
  return (
    <Card className="gap-4" data-testid="csv-format-card">
      <CardHeader>
        <CardTitle asChild>
          <h2>CSV Format</h2>
        </CardTitle>
        <CardDescription>
          The first row names the columns (in any order, any letter case)
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="font-medium">Required columns</dt>
          <dd>
            <Columns names={REQUIRED} />
          </dd>
          <dt className="font-medium">Optional columns</dt>
          <dd>
            <Columns names={OPTIONAL} />
          </dd>
          <dt className="font-medium">Categories</dt>
          <dd>
            <Columns names={[...LEAD_CATEGORIES]} />
          </dd>
          <dt className="font-medium">Values</dt>
          <dd className="text-muted-foreground">
            state as a 2-letter code or full name, age a whole number from 18 to 120, phone a valid
            number (a US number has 10 digits), zip 5 digits, consentAt a date and time
            (2026-03-01T14:30:00Z). A row is skipped as a duplicate when its phone or email matches
            a lead of the last 30 days or its externalId was imported before, and when its phone is
            on the do-not-call list
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}
