import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Icon } from '../../components/Icon';
import { useUser } from '../../features/auth/auth-context';
import { switchProfilePath } from '../navigation';
import { profileLabelKey, useProfileType } from './shell-hooks';

/** Admin/Personal view switcher, only for admins; keeps the current page name (/admin/map ⇄ /map). */
export function ProfileSwitcher({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const user = useUser();
  const profile = useProfileType();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  if (!user?.isAdmin) return null;
  const target = profile === 'Admin' ? 'Personal' : 'Admin';
  const go = () => navigate(switchProfilePath(pathname));

  if (compact) {
    return (
      <button
        type="button"
        onClick={go}
        aria-label={t('layout.switchTo', { profile: t(profileLabelKey(target)) })}
        title={t('layout.switchTo', { profile: t(profileLabelKey(target)) })}
        className="mx-auto flex size-9 items-center justify-center rounded-lg border border-line text-muted hover:bg-hover hover:text-ink"
      >
        <Icon name="swap" size={18} />
      </button>
    );
  }
  return (
    <fieldset
      aria-label={t('layout.profileSwitcher')}
      className="grid grid-cols-2 gap-1 rounded-xl border border-line bg-surface p-1"
    >
      {(['Personal', 'Admin'] as const).map((p) => (
        <button
          key={p}
          type="button"
          aria-pressed={profile === p}
          onClick={profile === p ? undefined : go}
          className={`rounded-lg px-2 py-1.5 text-xs font-semibold tracking-wide uppercase transition-colors ${
            profile === p ? 'bg-raised text-ink ring-1 ring-line-strong' : 'text-subtle hover:text-ink'
          }`}
        >
          {t(profileLabelKey(p))}
        </button>
      ))}
    </fieldset>
  );
}
