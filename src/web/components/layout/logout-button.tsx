import { paths } from '@web/app/paths';
import { SidebarMenuButton } from '@web/components/ui/sidebar-menu';
import { Spinner } from '@web/components/ui/spinner';
import { toast } from '@web/components/ui/use-toast';
import { useLogout } from '@web/features/auth/api';
import { LogOut } from 'lucide-react';
import { useLocation } from 'wouter';

export function LogoutButton() {
  const [, navigate] = useLocation();
  const logout = useLogout();
  return (
    <SidebarMenuButton
      tooltip="Logout"
      disabled={logout.isPending}
      data-testid="logout-button"
      onClick={() =>
        logout.mutate(undefined, {
          onSuccess: () => {
            toast({ title: 'Logged out', description: 'You have been logged out successfully' });
          },
          onSettled: () => navigate(paths.login),
        })
      }
    >
      {logout.isPending ? <Spinner /> : <LogOut aria-hidden="true" />}
      <span>Logout</span>
    </SidebarMenuButton>
  );
}
