import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { SelectField } from '../../components/form';
import { setActiveOrganization, useActiveOrganization } from '../auth/active-organization';
import { useUser } from '../auth/auth-context';

const PERSONAL = '';

/**
 * Personal or one of the user's organisations: whose NTRIP accounts and tokens the pages show. Switching keeps the
 * current page; on the organisations page it also opens the organisation chosen.
 */
export function OrganizationSwitcher() {
  const { t } = useTranslation('organizations');
  const user = useUser();
  const active = useActiveOrganization();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const teams = user?.teams ?? [];
  if (teams.length === 0) return null;
  const choose = (value: string) => {
    setActiveOrganization(value || null);
    if (value && pathname === '/settings/organization') void navigate(`?org=${value}`, { replace: true });
  };
  return (
    <SelectField
      label={t('switcher.label')}
      value={active?.id ?? PERSONAL}
      onChange={(event) => choose(event.target.value)}
      options={[
        { value: PERSONAL, label: t('switcher.personal') },
        ...teams.map((team) => ({ value: team.id, label: team.name })),
      ]}
      data-testid="organization-switcher"
    />
  );
}
