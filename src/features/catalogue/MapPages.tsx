import { useTranslation } from 'react-i18next';
import { Page } from '../../components/Page';
import { CoverageView } from './CoverageView';

/** /map: the same coverage for a logged-in user. */
export function MapPage() {
  const { t } = useTranslation();
  return (
    <Page name="map" title={t('pages.map.title')} subtitle={t('pages.map.description')}>
      <CoverageView scope="public" />
    </Page>
  );
}

/** /admin/map: every network, hidden ones included, with offline stations standing out. */
export function AdminMapPage() {
  const { t } = useTranslation();
  return (
    <Page name="admin-map" title={t('pages.adminMap.title')} subtitle={t('pages.adminMap.description')}>
      <CoverageView scope="admin" highlightOffline />
    </Page>
  );
}
