import { randomInt } from 'node:crypto';

/**
 * Credentials of NTRIP accounts. Only letters and digits: NTRIP 1 clients send them in Basic auth and many
 * (RTKLIB among them) take them from a `user:password@host:port/mount` path, where ':' '@' or '/' would break it.
 * Ambiguous characters (0 O o 1 l I) are left out so a password read aloud or typed into a receiver survives.
 */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const LOWER = 'abcdefghijkmnpqrstuvwxyz23456789';
/** 20 characters from 56 give ~116 bits. */
export const PASSWORD_LENGTH = 20;

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function generatePassword(): string {
  return randomString(ALPHABET, PASSWORD_LENGTH);
}

/** `rtk-` and 8 lower-case characters: unique in practice, and a retry on a clash settles the rest. */
export function generateUsername(): string {
  return `rtk-${randomString(LOWER, 8)}`;
}
