import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { type AppDeps, buildApp } from '../../src/app.ts';
import type { Database } from '../../src/db/client.ts';
import { DEMO_PROJECT_ID, emulatorClient } from '../../src/dev/auth-emulator.ts';
import { firebaseVerifier } from '../../src/http/firebase-verifier.ts';
import { createUsersRepo } from '../../src/modules/users/users.repo.ts';
import { createTestDatabase } from './database.ts';

export interface TestUser {
  userId: string;
  uid: string;
  email: string;
  token: string;
  headers: { authorization: string };
}

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  /**
   * A new Firebase user in the emulator with its users row, ready to call the API. Signed up through the form, so
   * accepted the terms unless `acceptTerms` is false; its e-mail unverified, as after sign-up, unless `emailVerified`.
   */
  buildUser(options?: {
    email?: string;
    displayName?: string;
    acceptTerms?: boolean;
    emailVerified?: boolean;
  }): Promise<TestUser>;
  buildAdmin(options?: { email?: string; acceptTerms?: boolean }): Promise<TestUser>;
  close(): Promise<void>;
}

/** The real app on a fresh database, verifying real tokens minted by the Auth Emulator. */
export async function buildTestApp(overrides: Partial<Omit<AppDeps, 'db' | 'verifier'>> = {}): Promise<TestContext> {
  const host = inject('authEmulatorHost');
  process.env.FIREBASE_AUTH_EMULATOR_HOST = host;
  const handle = await createTestDatabase();
  const app = await buildApp({ ...overrides, db: handle.db, verifier: firebaseVerifier(DEMO_PROJECT_ID) });
  await app.ready();
  const emulator = emulatorClient(host);
  const users = createUsersRepo(handle.db);

  const buildUser: TestContext['buildUser'] = async (options = {}) => {
    const email = options.email ?? `user-${randomUUID()}@example.test`;
    const password = 'correct-horse-battery';
    let { idToken, localId } = await emulator.signUp(email, password, options.displayName);
    if (options.emailVerified) {
      await emulator.markEmailVerified(localId);
      // Only a token minted after the verification carries email_verified: true.
      idToken = (await emulator.signIn(email, password)).idToken;
    }
    const row = await users.upsertFromIdentity({
      uid: localId,
      email,
      ...(options.displayName && { name: options.displayName }),
    });
    if (options.acceptTerms !== false) await users.acceptTerms(row.id);
    return { userId: row.id, uid: localId, email, token: idToken, headers: { authorization: `Bearer ${idToken}` } };
  };

  return {
    app,
    db: handle.db,
    buildUser,
    async buildAdmin(options = {}) {
      const user = await buildUser(options);
      await users.setAdmin(user.userId, true);
      return user;
    },
    async close() {
      await app.close();
      await handle.close();
    },
  };
}
