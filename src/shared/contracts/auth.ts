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
