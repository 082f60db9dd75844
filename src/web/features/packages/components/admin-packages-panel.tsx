import type { Package } from '@shared/contracts/packages';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { listView } from '@web/lib/list-view';
import { Package as PackageIcon, Plus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { adminPackagesQuery, useSetPackageActive } from '../admin-api';
import { PackageFormDialog } from './package-form-dialog';
import { PackagesTable } from './packages-table';
import { PriceListDialog } from './price-list-dialog';

type DialogState = { open: false } | { open: true; pkg: Package | null };

/** The packages table, its empty state and the Create/Edit dialog. */
export function AdminPackagesPanel({
  renderHeader,
}: {
  /** the page's header, given the Create Package button for its actions */
  renderHeader: (createButton: ReactNode) => ReactNode;
}) {
  const packages = useQuery(adminPackagesQuery);
  const setActive = useSetPackageActive();
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  // the pay-per-lead package whose price list is open
  const [priceListOf, setPriceListOf] = useState<Package | null>(null);
  const openCreate = () => setDialog({ open: true, pkg: null });

  function toggleActive(pkg: Package) {
    setActive.mutate(
      { id: pkg.id, active: !pkg.active },
      {
        onSuccess: () => toast({ title: 'Package status has been updated successfully' }),
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Update failed',
            description: errorMessage(error, 'Failed to update package'),
          }),
      },
    );
  }

  const list = packages.data ?? [];
  return (
    <>
      {renderHeader(
        <Button onClick={openCreate}>
          <Plus aria-hidden="true" />
          Create Package
        </Button>,
      )}
      <Card className="py-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <CardContent className="px-0 md:[&_td:first-child]:pl-6 md:[&_td:last-child]:pr-6 md:[&_th:first-child]:pl-6 md:[&_th:last-child]:pr-6">
          <PackagesTable
            packages={list}
            view={listView(packages, list.length)}
            error={{
              message: 'The packages could not be loaded.',
              onRetry: () => packages.refetch(),
              retrying: packages.isFetching,
            }}
            empty={
              <div className="flex flex-col items-center gap-4 py-4">
                <PackageIcon className="size-10" aria-hidden="true" />
                <p>No packages found</p>
                <Button onClick={openCreate}>
                  <Plus aria-hidden="true" />
                  Create Your First Package
                </Button>
              </div>
            }
            pendingId={setActive.isPending ? (setActive.variables?.id ?? null) : null}
            onEdit={(pkg) => setDialog({ open: true, pkg })}
            onToggleActive={toggleActive}
            onPriceList={setPriceListOf}
          />
        </CardContent>
      </Card>
      <PackageFormDialog
        open={dialog.open}
        pkg={dialog.open ? dialog.pkg : null}
        onClose={() => setDialog({ open: false })}
      />
      <PriceListDialog pkg={priceListOf} onClose={() => setPriceListOf(null)} />
    </>
  );
}
