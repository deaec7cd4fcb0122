import { type App, getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import type { IdentityVerifier } from '../shared/identity.ts';

/**
 * Verifies Firebase ID tokens. With FIREBASE_AUTH_EMULATOR_HOST in the environment firebase-admin accepts
 * the emulator's tokens; otherwise it checks Google's signatures for the configured project.
 */
export function firebaseVerifier(projectId: string): IdentityVerifier {
  const app: App = getApps().find((a) => a.name === projectId) ?? initializeApp({ projectId }, projectId);
  const auth = getAuth(app);
  return {
    async verify(idToken) {
      const decoded = await auth.verifyIdToken(idToken);
      return {
        uid: decoded.uid,
        ...(decoded.email && { email: decoded.email }),
        ...(decoded.email_verified !== undefined && { emailVerified: decoded.email_verified }),
        ...(typeof decoded.name === 'string' && { name: decoded.name }),
        ...(decoded.picture && { picture: decoded.picture }),
        ...(typeof decoded.auth_time === 'number' && { authTime: decoded.auth_time }),
      };
    },
    async deleteAccount(uid) {
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        // Already gone is what the caller wants.
        if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
      }
    },
  };
}
