import { describe, expect, it } from 'vitest';
import { DEMO_MESSAGE_MAX, demoRequestErrors, demoRequestSchema } from '../src/demo.ts';

const valid = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@fleet.example' };

describe('the demo request schema (spec §5)', () => {
  it('accepts the three required fields alone and fills the optional ones with empty text', () => {
    expect(demoRequestSchema.parse(valid)).toEqual({
      ...valid,
      loggedInEmail: '',
      company: '',
      phoneNumber: '',
      submittedFrom: '',
      message: '',
      gclid: '',
    });
  });

  it('requires first name, last name and e-mail non-empty after trimming', () => {
    expect(demoRequestErrors({ firstName: '  ', lastName: '\t', email: ' ' })).toEqual({
      firstName: 'required',
      lastName: 'required',
      email: 'required',
    });
    expect(demoRequestErrors({})).toEqual({ firstName: 'required', lastName: 'required', email: 'required' });
    expect(demoRequestSchema.parse({ ...valid, firstName: '  Ada ' }).firstName).toBe('Ada');
  });

  it.each([
    ['ada@fleet.example', true],
    ['a@b.c', true],
    ['  ada@fleet.example  ', true],
    ['ada@fleet', false],
    ['ada.fleet.example', false],
    ['ada @fleet.example', false],
    ['ada@fle et.example', false],
    ['@fleet.example', false],
    ['ada@.', false],
  ])('e-mail %j valid: %s', (email, ok) => {
    expect(demoRequestErrors({ ...valid, email }).email).toBe(ok ? undefined : 'invalidEmail');
  });

  it.each([
    ['', true],
    ['+31 6 12345678', true],
    ['(020) 123-4567', true],
    ['+31612345678', true],
    ['06 1234 567a', false],
    ['+31.6.1234', false],
    ['0612345678 ext', false],
  ])('phone %j valid: %s', (phoneNumber, ok) => {
    expect(demoRequestErrors({ ...valid, phoneNumber }).phoneNumber).toBe(ok ? undefined : 'invalidPhone');
  });

  it('allows a message of 200 characters and refuses 201, counting spaces as typed', () => {
    expect(demoRequestErrors({ ...valid, message: 'x'.repeat(DEMO_MESSAGE_MAX) })).toEqual({});
    expect(demoRequestErrors({ ...valid, message: 'x'.repeat(DEMO_MESSAGE_MAX + 1) })).toEqual({ message: 'tooLong' });
    expect(demoRequestErrors({ ...valid, message: `${'x'.repeat(DEMO_MESSAGE_MAX - 1)}  ` })).toEqual({
      message: 'tooLong',
    });
  });

  it('leaves company optional', () => {
    expect(demoRequestErrors({ ...valid, company: '' })).toEqual({});
    expect(demoRequestSchema.parse({ ...valid, company: ' Fleet BV ' }).company).toBe('Fleet BV');
  });

  it('refuses an over-long e-mail as too long without running the e-mail pattern over it (issue 16)', () => {
    // About 20 minutes of one CPU for the pattern; the test's timeout ends long before.
    const email = `a@${'.'.repeat(1_000_000)}@`;
    expect(demoRequestErrors({ ...valid, email })).toEqual({ email: 'tooLong' });
  });
});
