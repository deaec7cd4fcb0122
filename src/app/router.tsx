import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Navigate } from 'react-router';
import { useAuth } from '../features/auth/auth-context';

function DashboardPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  if (auth === 'loading') return <p role="status">{t('loading')}</p>;
  return (
    <main className="mx-auto max-w-[1200px] p-6">
      <h1 className="text-2xl font-semibold">{t('navigation.dashboard')}</h1>
      {auth && <p data-testid="logged-in-as">{auth.email}</p>}
    </main>
  );
}

export const router = createBrowserRouter([
  { path: '/dashboard', element: <DashboardPage /> },
  { path: '*', element: <Navigate to="/dashboard" replace /> },
]);
