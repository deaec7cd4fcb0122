import { createHash } from 'node:crypto';
import { USER_PHOTO_MAX_BYTES, USER_PHOTO_TYPES, type UserPhotoType } from '@portal/contract';
import type { Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import type { AccountRepo } from './account.repo.ts';

/** The file signature each accepted type must start with: the declared type alone is not trusted. */
export function sniffImageType(bytes: Uint8Array): UserPhotoType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return undefined;
}

export const unsupportedImage = () =>
  new AppError(
    415,
    'unsupported_image',
    `Upload a PNG, JPEG, WebP or GIF image of at most ${USER_PHOTO_MAX_BYTES / 1024} KB.`,
  );

export function createAccountService(deps: { repo: AccountRepo }) {
  return {
    /** Stores the caller's photo and answers the address it is served at (photoBase + user id + version). */
    async setPhoto(actor: Actor, contentType: string, bytes: Uint8Array, photoBase: string) {
      const declared = contentType.split(';')[0]?.trim().toLowerCase();
      if (
        !(USER_PHOTO_TYPES as readonly string[]).includes(declared ?? '') ||
        bytes.byteLength === 0 ||
        bytes.byteLength > USER_PHOTO_MAX_BYTES ||
        sniffImageType(bytes) !== declared
      ) {
        throw unsupportedImage();
      }
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const photoUrl = `${photoBase}/users/${actor.userId}/photo?v=${sha256.slice(0, 12)}`;
      await deps.repo.savePhoto({ userId: actor.userId, contentType: declared as string, bytes, sha256, photoUrl });
      return { photoURL: photoUrl };
    },

    removePhoto: (actor: Actor) => deps.repo.removePhoto(actor.userId),

    photo: (userId: string) => deps.repo.findPhoto(userId),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
