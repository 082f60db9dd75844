import type { Package } from '@shared/contracts/packages';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { toast } from '@web/components/ui/use-toast';
import { errorMessage } from '@web/lib/api-client';
import { Package as PackageIcon, Plus } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { adminPackagesQuery, useSetPackageActive } from '../admin-api';
import { PackageFormDialog } from './package-form-dialog';
import { PackagesTable } from './packages-table';

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
  const empty = packages.isSuccess && list.length === 0;
  return (
    <>
      {renderHeader(
        <Button onClick={openCreate}>
          <Plus aria-hidden="true" />
          Create Package
        </Button>,
      )}
      {packages.isError && (
        <p role="alert" className="text-destructive text-sm">
          The packages could not be loaded. Please reload the page.
        </p>
      )}
      <Card className="py-0">
        <CardContent className="px-0 [&_td:first-child]:pl-6 [&_td:last-child]:pr-6 [&_th:first-child]:pl-6 [&_th:last-child]:pr-6">
          {empty ? (
            <div className="flex flex-col items-center gap-4 px-6 py-16 text-center">
              <PackageIcon className="size-10 text-muted-foreground" aria-hidden="true" />
              <p className="text-muted-foreground">No packages found</p>
              <Button onClick={openCreate}>
                <Plus aria-hidden="true" />
                Create Your First Package
              </Button>
            </div>
          ) : (
            <PackagesTable
              packages={list}
              isLoading={packages.isPending}
              pendingId={setActive.isPending ? (setActive.variables?.id ?? null) : null}
              onEdit={(pkg) => setDialog({ open: true, pkg })}
              onToggleActive={toggleActive}
            />
          )}
        </CardContent>
      </Card>
      <PackageFormDialog
        open={dialog.open}
        pkg={dialog.open ? dialog.pkg : null}
        onClose={() => setDialog({ open: false })}
      />
    </>
  );
}
