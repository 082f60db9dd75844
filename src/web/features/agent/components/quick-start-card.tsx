import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { FileText, SlidersHorizontal } from 'lucide-react';
import { Link } from 'wouter';

export function QuickStartCard() {
  return (
    <Card data-testid="card-quick-start">
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-lg">Quick Start</h2>
        </CardTitle>
        <CardDescription>Work your leads and tell us which ones you want.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <Button asChild>
          <Link href={paths.agent.leads}>
            <FileText aria-hidden="true" />
            View My Leads
          </Link>
        </Button>
        <Button variant="outline" asChild>
          <Link href={paths.agent.preferences}>
            <SlidersHorizontal aria-hidden="true" />
            Set Preferences
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
