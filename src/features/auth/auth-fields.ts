/**
 * What the log-in and sign-up forms need to draw: their fields and when their button is enabled. Their zod schemas
 * (validation.ts) load on the form's first use (ADR 0093), so this module must not import zod.
 */

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

/** Sign-up submit is enabled only when the four fields are filled and the terms box is ticked (§4). */
export const canSubmitSignUp = (v: SignUpValues) =>
  v.email !== '' && v.username !== '' && v.password !== '' && v.confirmPassword !== '' && v.acceptTerms;

/** Log-in submit is enabled only when e-mail and password are filled (§4). */
export const canSubmitLogin = (v: LoginValues) => v.email !== '' && v.password !== '';
