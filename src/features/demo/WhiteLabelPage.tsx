import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Page } from '../../components/Page';
import { DemoRequestFlow } from './DemoRequestFlow';

/** The white-label offer and its sales-demo request, public and also reachable logged in. */
export function WhiteLabelPage() {
  const { t } = useTranslation('demo');
  const navigate = useNavigate();
  return (
    <Page name="white-label" title={t('page.title')} hideHeading>
      <DemoRequestFlow onDone={() => navigate('/dashboard')} />
    </Page>
  );
}
