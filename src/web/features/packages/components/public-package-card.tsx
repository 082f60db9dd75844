import type { OfferedPackage, Package } from '@shared/contracts/packages';
import { categoryLabel, formatLeadPrice, formatPrice } from '@shared/format';
import { paths } from '@web/app/paths';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { cn } from '@web/lib/utils';
import { Check } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

const serviceLabels = [
  ['crm', 'CRM'],
  ['callRecording', 'Call Recording'],
  ['followUpMessage', 'Follow-up Messages'],
] as const satisfies ReadonlyArray<readonly [keyof Package['services'], string]>;

/**
 * A package as a prospect sees it on the landing page. The agent's package screen reuses it
 * with its own action (Subscribe, Switch) in place of Get Started.
 */
export function PublicPackageCard({
  pkg,
  action,
  className,
}: {
  pkg: Package & Partial<Pick<OfferedPackage, 'unavailableServices'>>;
  action?: ReactNode;
  className?: string;
}) {
  const services = serviceLabels.filter(([key]) => pkg.services[key]);
  const perLead = pkg.pricing === 'PER_LEAD';
  return (
    <Card data-testid="package-card" className={cn('h-full', className)}>
      <CardHeader>
        <div className="flex flex-wrap gap-2">
          <Badge variant="secondary">{categoryLabel(pkg.category)}</Badge>
          {pkg.enrollmentOnly && <Badge variant="outline">Enrollment Period</Badge>}
        </div>
        <CardTitle asChild>
          <h3 className="mt-2 text-xl">{pkg.name}</h3>
        </CardTitle>
        <CardDescription>
          {perLead ? (
            // the least a lead costs, by the price list or the price per lead
            <>
              <span>from </span>
              <span className="font-bold text-3xl text-foreground">
                {formatLeadPrice(pkg.fromPerLeadCents ?? pkg.perLeadCents ?? 0)}
              </span>
              <span> per lead</span>
            </>
          ) : (
            <>
              <span className="font-bold text-3xl text-foreground">
                {formatPrice(pkg.priceMonthlyCents)}
              </span>
              <span>/month</span>
            </>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex-1 space-y-4">
        <ul className="space-y-2 text-sm">
          <li className="flex items-center gap-2">
            <Check className="size-4 text-primary" aria-hidden="true" />
            {perLead
              ? `Up to ${pkg.leadsPerDay} ${pkg.leadsPerDay === 1 ? 'lead' : 'leads'} a day`
              : `${pkg.leadsPerDay} leads per day`}
          </li>
          <li className="flex items-center gap-2">
            <Check className="size-4 text-primary" aria-hidden="true" />
            {pkg.commissionPct}% commission
          </li>
        </ul>
        {services.length > 0 && (
          <ul aria-label="Included services" className="flex flex-wrap gap-2">
            {services.map(([key, label]) =>
              // a service this server cannot provide is said so, never advertised
              pkg.unavailableServices?.includes(key) ? (
                <li key={key}>
                  <Badge variant="outline" className="text-muted-foreground">
                    {label}: not available
                  </Badge>
                </li>
              ) : (
                <li key={key}>
                  <Badge variant="outline">{label}</Badge>
                </li>
              ),
            )}
          </ul>
        )}
      </CardContent>
      <CardFooter>
        {action ?? (
          <Button className="w-full" asChild>
            <Link href={paths.register}>Get Started</Link>
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}

export function PublicPackageCardSkeleton() {
  return (
    <Card data-testid="package-card-skeleton" className="h-full">
      <CardHeader className="gap-3">
        <Skeleton className="h-5 w-24" />
        <Skeleton className="h-6 w-40" />
        <Skeleton className="h-9 w-32" />
      </CardHeader>
      <CardContent className="space-y-3">
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-6 w-2/3" />
      </CardContent>
      <CardFooter>
        <Skeleton className="h-9 w-full" />
      </CardFooter>
    </Card>
  );
}
