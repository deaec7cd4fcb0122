import { onIdTokenChanged, signOut, type User } from 'firebase/auth';
import { firebaseAuth } from '../../lib/firebase';

/** The AuthProvider's use of Firebase, in a module of its own so that it loads only with Firebase. */
export function watchIdToken(listener: (user: User | null) => void): () => void {
  return onIdTokenChanged(firebaseAuth(), listener);
}

export function logOut(): Promise<void> {
  return signOut(firebaseAuth());
}
