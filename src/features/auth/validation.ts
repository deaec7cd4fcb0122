// Before any schema is made here: zod must not probe `new Function` under the page's policy.
import '@portal/contract/zod-in-browsers';
import { z } from 'zod';
import type { LoginValues, SignUpValues } from './auth-fields';

/** Spec §9: minimum username and password lengths. */
export const MIN_USERNAME_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 8;

/** A general e-mail pattern: text, @, text, dot, text, without spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string) => EMAIL_PATTERN.test(value.trim());

/**
 * The sign-up rules (spec §5), in the spec's order; each problem's message is its translation key. Firebase, not the
 * portal's API, receives these fields, so the schema lives beside the form rather than in contract/.
 */
export const signUpSchema = z
  .object({
    email: z.string().trim().regex(EMAIL_PATTERN, { error: 'auth.register.messaging.invalidEmail' }),
    username: z.string().trim().min(MIN_USERNAME_LENGTH, { error: 'auth.register.messaging.shortUsername' }),
    password: z.string().min(MIN_PASSWORD_LENGTH, { error: 'auth.register.messaging.shortPassword' }),
    confirmPassword: z.string(),
    acceptTerms: z.boolean(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: 'auth.register.messaging.passwordMismatch',
    path: ['confirmPassword'],
  });

/** The log-in rules (spec §5). */
export const loginSchema = z.object({
  email: z.string().trim().regex(EMAIL_PATTERN, { error: 'auth.login.messaging.invalidEmail' }),
  password: z.string().min(MIN_PASSWORD_LENGTH, { error: 'auth.login.messaging.invalidPassword' }),
});

/** A new password on /settings follows the sign-up's password rules. */
export const changePasswordSchema = z
  .object({
    current: z.string(),
    next: z.string().min(MIN_PASSWORD_LENGTH, { error: 'auth.register.messaging.shortPassword' }),
    confirm: z.string(),
  })
  .refine((v) => v.next === v.confirm, { error: 'auth.register.messaging.passwordMismatch', path: ['confirm'] });

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};

/** The profile on /settings: a display name as long as a sign-up's username, a photo address that is http(s) or none. */
export const profileSchema = z.object({
  displayName: z.string().trim().min(MIN_USERNAME_LENGTH, { error: 'settings.profile.invalidName' }),
  photoURL: z.string().refine((v) => v === '' || isHttpUrl(v), { error: 'settings.profile.invalidUrl' }),
});

/**
 * Deleting the account takes the confirmation word of the user's language and, for an account with a password, that
 * password; the button stays disabled until both are there, so the problems have no texts of their own.
 */
export const deleteAccountSchema = (confirmWord: string, withPassword: boolean) =>
  z.object({
    password: withPassword ? z.string().min(1) : z.string(),
    word: z.literal(confirmWord),
  });

/** Forgot password requires an e-mail (§5). */
export const forgotPasswordSchema = z.object({
  email: z.string().trim().min(1, { error: 'auth.forgotPassword.enterEmail' }),
});

const firstKey = (schema: z.ZodType, values: unknown) => schema.safeParse(values).error?.issues[0]?.message;

/** The translation key of the first failed sign-up rule, in the spec's order (§5), or undefined when valid. */
export const signUpError = (v: SignUpValues): string | undefined => firstKey(signUpSchema, v);

/** The translation key of the first failed log-in rule (§5), or undefined when valid. */
export const loginError = (v: LoginValues): string | undefined => firstKey(loginSchema, v);

/** The key of the forgot-password rule that failed (§5), or undefined when valid. */
export const forgotPasswordError = (email: string): string | undefined => firstKey(forgotPasswordSchema, { email });
