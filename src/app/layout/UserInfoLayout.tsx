import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../components/Avatar';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { useUser } from '../../features/auth/auth-context';
import { useLogout } from './shell-hooks';

/**
 * A user-info page (spec §2): the user's photo, name and e-mail with a Logout button in a sidebar beside the
 * content (e.g. account settings). Stacks on mobile.
 */
export function UserInfoLayout({ children, nav }: { children: ReactNode; nav?: ReactNode }) {
  const { t } = useTranslation();
  const user = useUser();
  const logout = useLogout();
  return (
    <div className="grid gap-6 md:grid-cols-[240px_1fr]">
      <aside
        aria-label={t('layout.userInfo')}
        className="flex h-fit flex-col gap-4 rounded-2xl border border-line bg-panel p-5"
      >
        <div className="flex items-center gap-3 md:flex-col md:items-start">
          <Avatar photoURL={user?.photoURL} size={56} />
          <div className="min-w-0">
            <p className="truncate font-semibold text-ink">{user?.username || t('layout.fallbackUser')}</p>
            {user?.email && <p className="truncate text-sm text-muted">{user.email}</p>}
          </div>
        </div>
        {nav}
        <Button variant="secondary" onClick={() => void logout()}>
          <Icon name="logout" size={16} />
          {t('layout.logout')}
        </Button>
      </aside>
      <div className="min-w-0">{children}</div>
    </div>
  );
}
