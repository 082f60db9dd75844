import { z } from 'zod';
import { ACCOUNT_APPROVALS, MIN_PASSWORD_LENGTH, REGISTRATION_MODES, USER_ROLES } from '../domain';

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));

export const loginBody = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254),
  password: z.string().min(1, 'Password is required').max(1024),
});
export type LoginBody = z.infer<typeof loginBody>;

const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024);
/** a token of a link (reset, invite): 32 random bytes in base64url */
const linkToken = z.string().min(1).max(128);

export const registerBody = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  email: emailSchema,
  password: newPassword,
  /** the invite link's token (REGISTRATION=invite) */
  invite: linkToken.optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const publicUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLES),
  /** docs/domain.md, Accounts: a PENDING agent sees only "Waiting for approval" */
  approval: z.enum(ACCOUNT_APPROVALS),
});
export type PublicUser = z.infer<typeof publicUser>;

export const userEnvelope = z.object({ user: publicUser });
export const messageResponse = z.object({ message: z.string() });

/** Who may sign up, for the login and register screens (docs/domain.md, Accounts). */
export const registrationInfo = z.object({ mode: z.enum(REGISTRATION_MODES) });
export type RegistrationInfo = z.infer<typeof registrationInfo>;

export const forgotPasswordBody = z.object({ email: z.string().trim().min(1).max(254) });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

export const resetPasswordBody = z.object({ token: linkToken, password: newPassword });
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(1024),
  newPassword,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

export const inviteBody = z.object({ email: emailSchema.optional() });
export type InviteBody = z.infer<typeof inviteBody>;

/** A link to hand over: a password reset or an invite. */
export const linkResponse = z.object({ url: z.string() });
export type LinkResponse = z.infer<typeof linkResponse>;

/** What an agent an admin has not approved is told by every agent route (docs/domain.md, Accounts). */
export const NOT_APPROVED_MESSAGE = {
  PENDING: "Your account is waiting for an admin's approval",
  REFUSED: 'Your account was not approved',
} as const;
/** An admin disables or re-enables an account (docs/domain.md, Offboarding). */
export const userDisabledBody = z.object({ disabled: z.boolean() });
export type UserDisabledBody = z.infer<typeof userDisabledBody>;

export const adminUser = publicUser.extend({
  disabled: z.boolean(),
  /** when it was disabled; null while enabled */
  disabledAt: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUser>;

/** What every route but the setup answers an admin who must turn two factors on (docs/domain.md, Accounts). */
export const TWO_FACTOR_SETUP_REQUIRED =
  'Set up two-factor authentication on your Account screen before using LeadFlow';

/** The current user, with where they stand on two factors. */
export const meResponse = publicUser.extend({
  /** two factors must be turned on before anything else (REQUIRE_2FA_FOR_ADMINS) */
  twoFactorSetupRequired: z.boolean(),
});
export type MeResponse = z.infer<typeof meResponse>;

/** Login's answer: the session's user, or the code step when two factors are on. */
export const loginResponse = z.union([
  userEnvelope,
  z.object({ twoFactorRequired: z.literal(true) }),
]);
export type LoginResponse = z.infer<typeof loginResponse>;

/** A TOTP code (6 digits) or a recovery code (xxxxx-xxxxx). */
export const twoFactorCodeBody = z.object({
  code: z.string().trim().min(1, 'Enter a code').max(32),
});
export type TwoFactorCodeBody = z.infer<typeof twoFactorCodeBody>;

export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatus>;

/** The pending secret, shown once: for the QR code and for typing in by hand. */
export const totpSetupResponse = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  qrSvg: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;

/** Ten recovery codes, shown once, each usable once in place of a TOTP code. */
export const recoveryCodesResponse = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;
