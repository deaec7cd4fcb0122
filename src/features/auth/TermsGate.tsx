import { type ReactNode, Suspense, useState } from 'react';
import { lazyWithQueries } from '../../lib/query-client-slot';
import { useUser } from './auth-context';

// A signed-in user's part: it reads GET /api/user through React Query, which a logged-out visitor never loads.
const UserTermsGate = lazyWithQueries(async () => (await import('./UserTermsGate')).UserTermsGate);

/**
 * Shows the app only to users who accepted the terms (UserTermsGate). A logged-out visitor passes; so does a
 * signed-in user until GET /api/user has told (as before this gate's queries loaded lazily).
 */
export function TermsGate({ paused, children }: { paused: boolean; children: ReactNode }) {
  const user = useUser();
  const [blocking, setBlocking] = useState(false);
  return (
    <>
      {user && blocking ? null : children}
      {user && (
        <Suspense fallback={null}>
          <UserTermsGate key={user.uid} user={user} paused={paused} onBlockingChange={setBlocking} />
        </Suspense>
      )}
    </>
  );
}
