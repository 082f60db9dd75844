import { LEGAL_PAGE_TITLES, type LegalPageName } from '@shared/contracts/legal';
import { useQuery } from '@tanstack/react-query';
import { BrandLogo } from '@web/components/layout/brand-logo';
import { LoadError } from '@web/components/ui/load-error';
import { Skeleton } from '@web/components/ui/skeleton';
import { legalPageQuery } from '@web/features/legal/api';
import { LegalText } from '@web/features/legal/components/legal-text';
import { Link } from 'wouter';
import { paths } from '../paths';

/** The footer's Privacy Policy or Terms of Service, as an admin wrote it (docs/domain.md, Legal pages). */
export function LegalPage({ page }: { page: LegalPageName }) {
  const query = useQuery(legalPageQuery(page));
  const title = LEGAL_PAGE_TITLES[page];
  return (
    <div className="min-h-svh">
      <title>{`${title} · LeadFlow`}</title>
      <header className="border-b">
        <div className="mx-auto flex max-w-3xl items-center justify-between px-4 py-4 sm:px-6">
          <Link href={paths.landing} aria-label="LeadFlow home">
            <BrandLogo />
          </Link>
          <Link
            href={paths.landing}
            className="text-muted-foreground text-sm hover:text-foreground"
          >
            Back to the home page
          </Link>
        </div>
      </header>
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6">
        <h1 className="font-bold text-3xl tracking-tight">{title}</h1>
        {query.data && <LegalText page={query.data} />}
        {query.isPending && (
          <div className="space-y-3" role="status" aria-label="Loading">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
            <Skeleton className="h-4 w-2/3" />
          </div>
        )}
        {query.isError && (
          <LoadError
            message={`The ${title} could not be loaded.`}
            onRetry={() => query.refetch()}
            retrying={query.isFetching}
          />
        )}
      </main>
    </div>
  );
}
