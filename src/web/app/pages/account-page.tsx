import { PageHeader } from '@web/components/layout/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { ChangePasswordForm } from '@web/features/auth/components/change-password-form';

/** The signed-in user's account (agents and admins): Change password. */
export function AccountPage() {
  return (
    <div className="space-y-6">
      <PageHeader title="Account" description="Your sign-in details" />
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Change password</h2>
          </CardTitle>
          <CardDescription>
            Your other sessions are signed out; this one stays signed in.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ChangePasswordForm />
        </CardContent>
      </Card>
    </div>
  );
}
