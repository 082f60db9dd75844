import { LEAD_CATEGORIES } from '@shared/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';

const REQUIRED = ['state', 'city', 'age', 'category'];
const OPTIONAL = ['firstName', 'lastName', 'phone', 'email', 'externalId'];

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

/** The columns an import file needs (spec section 5). */
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
            state as a 2-letter code or full name, age a whole number from 18 to 120; a row whose
            externalId was imported before is skipped
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}
