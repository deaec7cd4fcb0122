import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CardSection } from '../../components/CardSection';
import { Page } from '../../components/Page';
import { useFormat } from '../../lib/format';
import { useAllOrganizations } from '../organizations/organizations.hooks';

/** /admin/organizations: every organisation with its owner and size. */
export function AdminOrganizationsPage() {
  const { t } = useTranslation('organizations');
  const { t: tc } = useTranslation();
  const format = useFormat();
  const orgs = useAllOrganizations();
  const navigate = useNavigate();
  return (
    <Page
      name="admin-organizations"
      title={tc('pages.adminOrganizations.title')}
      subtitle={tc('pages.adminOrganizations.description')}
    >
      <CardSection
        defaultView="list"
        filter={(row, query) => `${row.name} ${row.records.owner}`.toLowerCase().includes(query.toLowerCase())}
        columns={[
          { key: 'owner', header: t('admin.owner') },
          { key: 'members', header: t('admin.members') },
          { key: 'created', header: t('admin.created') },
        ]}
        emptyText={orgs.isLoading ? t('admin.loading') : t('admin.empty')}
        rows={(orgs.data ?? []).map((o) => ({
          id: o.id,
          name: o.name,
          editAction: () => navigate(`/admin/organizations/${o.id}`),
          records: {
            owner: o.ownerEmail ?? '—',
            members: String(o.memberCount),
            created: format.date(o.createdAt),
          },
        }))}
      />
    </Page>
  );
}
