/** Spec §9: minimum username and password lengths. */
export const MIN_USERNAME_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 8;

/** A general e-mail pattern: text, @, text, dot, text, without spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string) => EMAIL_PATTERN.test(value.trim());

export interface SignUpValues {
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
  acceptTerms: boolean;
}

export interface LoginValues {
  email: string;
  password: string;
}

/** The translation key of the first failed sign-up rule, in the spec's order (§5), or undefined when valid. */
export function signUpError(v: SignUpValues): string | undefined {
  if (!isEmail(v.email)) return 'auth.register.messaging.invalidEmail';
  if (v.username.trim().length < MIN_USERNAME_LENGTH) return 'auth.register.messaging.shortUsername';
  if (v.password.length < MIN_PASSWORD_LENGTH) return 'auth.register.messaging.shortPassword';
  if (v.password !== v.confirmPassword) return 'auth.register.messaging.passwordMismatch';
  return undefined;
}

/** Sign-up submit is enabled only when the four fields are filled and the terms box is ticked (§4). */
export const canSubmitSignUp = (v: SignUpValues) =>
  v.email !== '' && v.username !== '' && v.password !== '' && v.confirmPassword !== '' && v.acceptTerms;

/** The translation key of the first failed log-in rule (§5), or undefined when valid. */
export function loginError(v: LoginValues): string | undefined {
  if (!isEmail(v.email)) return 'auth.login.messaging.invalidEmail';
  if (v.password.length < MIN_PASSWORD_LENGTH) return 'auth.login.messaging.invalidPassword';
  return undefined;
}

/** Log-in submit is enabled only when e-mail and password are filled (§4). */
export const canSubmitLogin = (v: LoginValues) => v.email !== '' && v.password !== '';

/** Forgot password requires an e-mail (§5). */
export const forgotPasswordError = (email: string): string | undefined =>
  email.trim() === '' ? 'auth.forgotPassword.enterEmail' : undefined;
