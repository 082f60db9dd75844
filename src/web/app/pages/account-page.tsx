import { PageHeader } from '@web/components/layout/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { useCurrentUser } from '@web/features/auth/api';
import { ChangePasswordForm } from '@web/features/auth/components/change-password-form';
import { PasskeysCard } from '@web/features/auth/components/passkeys-card';
import { TwoFactorCard } from '@web/features/auth/components/two-factor-card';

/**
 * The signed-in user's account (agents and admins): Change password and two-factor
 * authentication (the authenticator app, passkeys). A user who must set up two factors
 * (REQUIRE_2FA_FOR_ADMINS, an agency's requirement) sees only the latter.
 */
export function AccountPage() {
  const required = useCurrentUser().data?.twoFactorSetupRequired ?? false;
  return (
    <div className="space-y-6">
      <PageHeader title="Account" description="Your sign-in details" />
      <TwoFactorCard required={required} />
      {/* a passkey is two factors as well: open to whoever must set them up */}
      <PasskeysCard />
      {!required && (
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
      )}
    </div>
  );
}
