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
  /** an agency's invite code (its join link): the account is made a member as it is created */
  agencyInvite: z.string().trim().min(1).max(200).optional(),
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

/**
 * Login's answer: the session's user, or the second step when two factors are on, with the
 * factors the user has (a code of the authenticator app or a recovery code; a passkey).
 */
export const loginResponse = z.union([
  userEnvelope,
  z.object({
    twoFactorRequired: z.literal(true),
    methods: z.object({ totp: z.boolean(), passkey: z.boolean() }),
  }),
]);
export type LoginResponse = z.infer<typeof loginResponse>;

/** A TOTP code (6 digits) or a recovery code (xxxxx-xxxxx). */
export const twoFactorCodeBody = z.object({
  code: z.string().trim().min(1, 'Enter a code').max(32),
});
export type TwoFactorCodeBody = z.infer<typeof twoFactorCodeBody>;

export const twoFactorStatus = z.object({
  /** the authenticator app (TOTP) is on */
  enabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** how many passkeys the user has: one is enough for two factors to be on */
  passkeys: z.number().int(),
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

/** A base64url field of a WebAuthn answer, bounded. */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'base64url');

/**
 * What the browser answers to navigator.credentials.get (as @simplewebauthn/browser's
 * startAuthentication gives it): an assertion of a passkey.
 */
export const passkeyAssertion = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(8192),
    authenticatorData: b64url(8192),
    signature: b64url(2048),
    userHandle: b64url(512).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertion>;

/** A new passkey: the browser's answer to navigator.credentials.create, and the user's name for it. */
export const passkeyRegisterBody = z.object({
  name: z.string().trim().min(1, 'Name the passkey').max(60),
  response: z.object({
    id: b64url(1400),
    rawId: b64url(1400),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: b64url(8192),
      attestationObject: b64url(65_536),
      authenticatorData: b64url(65_536).optional(),
      transports: z.array(z.string().max(40)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64url(65_536).optional(),
    }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  }),
});
export type PasskeyRegisterBody = z.infer<typeof passkeyRegisterBody>;

/** The second step or a passkey sign-in: the assertion. */
export const passkeyAssertionBody = z.object({ response: passkeyAssertion });
export type PasskeyAssertionBody = z.infer<typeof passkeyAssertionBody>;

/** Removing a passkey: the last second factor needs a fresh assertion of a passkey of the user. */
export const passkeyDeleteBody = z.object({ confirmation: passkeyAssertion.optional() }).nullish();
export type PasskeyDeleteBody = z.infer<typeof passkeyDeleteBody>;

export const passkeyRenameBody = z.object({
  name: z.string().trim().min(1, 'Name the passkey').max(60),
});

/** Options for navigator.credentials.create or .get, as @simplewebauthn/browser takes them. */
export const webauthnOptions = z.looseObject({ challenge: z.string() });

export const passkeyItem = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeyItem = z.infer<typeof passkeyItem>;
export const passkeyList = z.object({ passkeys: z.array(passkeyItem) });
export type PasskeyList = z.infer<typeof passkeyList>;

/** An admin's reset of a user's second factor: what was removed. */
export const twoFactorResetResponse = z.object({
  message: z.string(),
  /** the authenticator app was on */
  totp: z.boolean(),
  /** passkeys removed */
  passkeys: z.number().int(),
});
export type TwoFactorResetResponse = z.infer<typeof twoFactorResetResponse>;
