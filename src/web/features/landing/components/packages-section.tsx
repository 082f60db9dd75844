import { useQuery } from '@tanstack/react-query';
import { landingAnchors } from '@web/app/paths';
import { packagesQuery } from '@web/features/packages/api';
import {
  PublicPackageCard,
  PublicPackageCardSkeleton,
} from '@web/features/packages/components/public-package-card';

const SKELETON_CARDS = 3;

export function PackagesSection() {
  const { data, isPending, isError } = useQuery(packagesQuery);
  const packages = (data ?? []).filter((pkg) => pkg.active);

  return (
    <section
      id={landingAnchors.packages}
      aria-labelledby="packages-title"
      className="mx-auto max-w-6xl px-4 py-20 sm:px-6"
    >
      <div className="mx-auto max-w-2xl text-center">
        <h2 id="packages-title" className="font-bold text-3xl tracking-tight sm:text-4xl">
          Choose Your Package
        </h2>
        <p className="mt-4 text-muted-foreground">
          Pick the lead type you sell. Every package delivers fresh, exclusive leads to your
          dashboard each day.
        </p>
      </div>
      <div className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-busy={isPending}>
        {isPending &&
          Array.from({ length: SKELETON_CARDS }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <PublicPackageCardSkeleton key={index} />
          ))}
        {packages.map((pkg) => (
          <PublicPackageCard key={pkg.id} pkg={pkg} />
        ))}
      </div>
      {!isPending && packages.length === 0 && (
        <p className="mt-8 text-center text-muted-foreground">
          {isError
            ? 'Packages could not be loaded. Please try again later.'
            : 'New packages are coming soon.'}
        </p>
      )}
    </section>
  );
}
