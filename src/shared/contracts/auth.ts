import { z } from 'zod';
import { MIN_PASSWORD_LENGTH, USER_ROLES } from '../domain';

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));

export const loginBody = z.object({
  email: z.string().trim().min(1, 'Email is required').max(254),
  password: z.string().min(1, 'Password is required').max(1024),
});
export type LoginBody = z.infer<typeof loginBody>;

export const registerBody = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  email: emailSchema,
  password: z
    .string()
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1024),
});
export type RegisterBody = z.infer<typeof registerBody>;

export const publicUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLES),
});
export type PublicUser = z.infer<typeof publicUser>;

export const userEnvelope = z.object({ user: publicUser });
export const messageResponse = z.object({ message: z.string() });

/** An admin disables or re-enables an account (docs/domain.md, Offboarding). */
export const userDisabledBody = z.object({ disabled: z.boolean() });
export type UserDisabledBody = z.infer<typeof userDisabledBody>;

export const adminUser = publicUser.extend({
  disabled: z.boolean(),
  /** when it was disabled; null while enabled */
  disabledAt: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUser>;
