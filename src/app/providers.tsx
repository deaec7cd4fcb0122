import type { ReactNode } from 'react';
import { AuthProvider } from '../features/auth/AuthProvider';
import { QueryClientSlot } from '../lib/query-client-slot';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientSlot>
      <AuthProvider>{children}</AuthProvider>
    </QueryClientSlot>
  );
}
