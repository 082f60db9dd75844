import { dictionary } from '@zxcvbn-ts/language-common';
import { MIN_PASSWORD_LENGTH } from '../../../shared/domain';

/**
 * How many of the most common passwords are refused. The list is zxcvbn-ts' "passwords-common"
 * (@zxcvbn-ts/language-common, MIT): about 49,000 passwords from leaked sets, most common first,
 * all lower case. The first 10,000 are refused, compared without case.
 */
export const COMMON_PASSWORDS_REFUSED = 10_000;
export const MAX_PASSWORD_LENGTH = 1024;

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORDS_REFUSED));
  return common;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/**
 * Why a new password is refused, or null when it is acceptable: the spec's 6 to 1024 characters,
 * not only spaces, and not one of the most common passwords. Registration and the admin's
 * password (ADMIN_PASSWORD, for the first admin and admin:create) go through it; login does not,
 * so accounts made before the rule still sign in.
 */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  }
  if (password.trim() === '') return 'Password cannot be only spaces';
  if (isCommonPassword(password)) {
    return 'This password is too common: it is among the 10,000 most used. Choose another';
  }
  return null;
}
