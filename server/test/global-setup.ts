import type { TestProject } from 'vitest/node';
import { startAuthEmulator } from '../src/dev/auth-emulator.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}

/** One Auth Emulator for the whole server run; every test file makes its own users with unique e-mails. */
export default async function setup(project: TestProject) {
  const emulator = await startAuthEmulator();
  project.provide('authEmulatorHost', emulator.host);
  return () => emulator.stop();
}
