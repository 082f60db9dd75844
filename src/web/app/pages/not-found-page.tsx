import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { CircleAlert } from 'lucide-react';
import { Link } from 'wouter';
import { paths } from '../paths';

export function NotFoundPage() {
  return (
    <main className="flex min-h-svh w-full items-center justify-center bg-muted/40 px-4">
      <title>404 Page Not Found · LeadFlow</title>
      <Card className="w-full max-w-md">
        <CardContent className="pt-2">
          <div className="flex items-center gap-2">
            <CircleAlert className="size-8 text-destructive" aria-hidden="true" />
            <h1 className="font-bold text-2xl">404 Page Not Found</h1>
          </div>
          <p className="mt-4 text-muted-foreground text-sm">
            Did you forget to add the page to the router?
          </p>
          <Button variant="outline" className="mt-6" asChild>
            <Link href={paths.landing}>Go to the home page</Link>
          </Button>
        </CardContent>
      </Card>
    </main>
  );
}
