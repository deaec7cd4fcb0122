import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { answerConsent, type Consent, consentNeeded } from './consent';

/**
 * Asks once whether Google Tag Manager may load (analytics cookies). Fixed to the bottom of the window, over the
 * page rather than in its flow, so it moves nothing when it appears or goes.
 */
export function ConsentBanner() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(consentNeeded);
  if (!open) return null;
  const answer = (consent: Consent) => {
    answerConsent(consent);
    setOpen(false);
  };
  return (
    <section
      aria-label={t('consent.label')}
      data-testid="consent-banner"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-line bg-panel px-4 py-3 shadow-lg md:inset-x-auto md:right-4 md:bottom-4 md:max-w-md md:rounded-2xl md:border"
    >
      <p className="text-sm text-ink">{t('consent.text')}</p>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={() => answer('denied')} data-testid="consent-deny">
          {t('consent.deny')}
        </Button>
        <Button size="sm" onClick={() => answer('granted')} data-testid="consent-accept">
          {t('consent.accept')}
        </Button>
      </div>
    </section>
  );
}
