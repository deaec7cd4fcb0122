import { describe, expect, it } from 'vitest';
import { canSubmitLogin, canSubmitSignUp } from '../../../src/features/auth/auth-fields';
import { forgotPasswordError, loginError, signUpError } from '../../../src/features/auth/validation';

const valid = {
  email: 'rover@example.com',
  username: 'abc',
  password: '12345678',
  confirmPassword: '12345678',
  acceptTerms: true,
};

describe('sign-up rules, in the order of spec §5', () => {
  it.each([
    ['an empty e-mail', { email: '' }, 'auth.register.messaging.invalidEmail'],
    ['an e-mail of spaces', { email: '   ' }, 'auth.register.messaging.invalidEmail'],
    ['not an e-mail', { email: 'rover@', username: '', password: '' }, 'auth.register.messaging.invalidEmail'],
    [
      'a 2-character username',
      { username: 'ab', password: '1', confirmPassword: '2' },
      'auth.register.messaging.shortUsername',
    ],
    ['a username of spaces', { username: '    ' }, 'auth.register.messaging.shortUsername'],
    ['a 7-character password', { password: '1234567', confirmPassword: 'x' }, 'auth.register.messaging.shortPassword'],
    ['a different confirmation', { confirmPassword: '12345679' }, 'auth.register.messaging.passwordMismatch'],
  ])('%s gives %s', (_name, change, key) => {
    expect(signUpError({ ...valid, ...change })).toBe(key);
  });

  it('accepts the minimum lengths (3 and 8)', () => {
    expect(signUpError(valid)).toBeUndefined();
  });

  it('enables submit only with all four fields and the box ticked', () => {
    expect(canSubmitSignUp(valid)).toBe(true);
    for (const field of ['email', 'username', 'password', 'confirmPassword'] as const) {
      expect(canSubmitSignUp({ ...valid, [field]: '' })).toBe(false);
    }
    expect(canSubmitSignUp({ ...valid, acceptTerms: false })).toBe(false);
  });
});

describe('log-in rules', () => {
  it.each([
    ['', '12345678', 'auth.login.messaging.invalidEmail'],
    ['  ', '1', 'auth.login.messaging.invalidEmail'],
    ['rover@example.com', '1234567', 'auth.login.messaging.invalidPassword'],
    ['rover@example.com', '', 'auth.login.messaging.invalidPassword'],
  ])('%j / %j gives %s', (email, password, key) => {
    expect(loginError({ email, password })).toBe(key);
  });

  it('accepts a valid e-mail and an 8-character password', () => {
    expect(loginError({ email: ' rover@example.com ', password: '12345678' })).toBeUndefined();
  });

  it('enables submit only with both fields filled', () => {
    expect(canSubmitLogin({ email: 'a', password: 'b' })).toBe(true);
    expect(canSubmitLogin({ email: '', password: 'b' })).toBe(false);
    expect(canSubmitLogin({ email: 'a', password: '' })).toBe(false);
  });
});

describe('forgot password', () => {
  it('requires an e-mail', () => {
    expect(forgotPasswordError('')).toBe('auth.forgotPassword.enterEmail');
    expect(forgotPasswordError('  ')).toBe('auth.forgotPassword.enterEmail');
    expect(forgotPasswordError('rover@example.com')).toBeUndefined();
  });
});
