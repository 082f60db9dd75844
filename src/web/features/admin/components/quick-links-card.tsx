import { paths } from '@web/app/paths';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Package, Upload } from 'lucide-react';
import { Link } from 'wouter';

export function QuickLinksCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Quick Actions</h2>
        </CardTitle>
        <CardDescription>Common administrative tasks</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <Button asChild variant="outline" className="justify-start">
          <Link href={paths.admin.leads}>
            <Upload aria-hidden="true" />
            Import Leads
          </Link>
        </Button>
        <Button asChild variant="outline" className="justify-start">
          <Link href={paths.admin.packages}>
            <Package aria-hidden="true" />
            Manage Packages
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
