import { paths } from '@web/app/paths';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { BrandLogo } from './brand-logo';

/** The centred card that frames the login and registration forms. */
export function AuthLayout({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description: string;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <div className="flex min-h-svh flex-col items-center justify-center bg-muted/40 px-4 py-10">
      <header className="mb-6">
        <Link
          href={paths.landing}
          aria-label="LeadFlow home"
          className="rounded-md focus-visible:outline-2 focus-visible:outline-ring"
        >
          <BrandLogo />
        </Link>
      </header>
      <main className="w-full max-w-md">
        <Card>
          <CardHeader className="text-center">
            <CardTitle asChild>
              <h1 className="text-2xl">{title}</h1>
            </CardTitle>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            {children}
            <p className="text-center text-muted-foreground text-sm">{footer}</p>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
