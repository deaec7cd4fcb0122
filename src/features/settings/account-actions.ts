import { type UserPhotoResponse, userPhotoResponseSchema } from '@portal/contract';
import {
  EmailAuthProvider,
  reauthenticateWithCredential,
  signOut,
  type User,
  updatePassword,
  updateProfile,
} from 'firebase/auth';
import { api } from '../../lib/api';
import { firebaseAuth } from '../../lib/firebase';

/** The signed-in Firebase user, or the spec's error when authentication is unavailable. */
function currentUser(): User {
  const user = firebaseAuth().currentUser;
  if (!user) throw new Error('User is not logged in');
  return user;
}

/** True when the account signs in with e-mail and password (and so can change it here). */
export function hasPassword(): boolean {
  return Boolean(firebaseAuth().currentUser?.providerData.some((p) => p.providerId === 'password'));
}

/**
 * Firebase keeps the display name and photo; the next token carries them to the server's users row. Only the
 * fields given are sent; an empty photoURL removes the photo (the Auth Emulator refuses null, which Firebase
 * documents for that).
 */
export async function saveProfile(profile: { displayName?: string; photoURL?: string }): Promise<void> {
  await updateProfile(currentUser(), {
    ...(profile.displayName !== undefined && { displayName: profile.displayName.trim() }),
    ...(profile.photoURL !== undefined && { photoURL: profile.photoURL }),
  });
}

/** Uploads the image to the portal (POST /api/user/photo) and answers the address it is served at. */
export async function uploadPhoto(file: Blob): Promise<string> {
  const { data } = await api.post<UserPhotoResponse>('/user/photo', file, {
    headers: { 'Content-Type': file.type },
  });
  return userPhotoResponseSchema.parse(data).photoURL;
}

export async function removeUploadedPhoto(): Promise<void> {
  await api.delete('/user/photo');
}

/** Proves the person still knows the password (Firebase asks for a recent sign-in before sensitive changes). */
export async function reauthenticate(password: string): Promise<void> {
  const user = currentUser();
  if (!user.email) throw new Error('This account has no e-mail address.');
  await reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email, password));
}

export async function changePassword(current: string, next: string): Promise<void> {
  await reauthenticate(current);
  await updatePassword(currentUser(), next);
}

/**
 * Deletes the account on the server (which removes the data and the Firebase account), then signs out locally.
 * Password accounts re-authenticate first: the server accepts only a sign-in a few minutes old.
 */
export async function deleteAccount(password: string | undefined): Promise<void> {
  if (password !== undefined) await reauthenticate(password);
  await currentUser().getIdToken(true);
  await api.delete('/user');
  await signOut(firebaseAuth());
}
