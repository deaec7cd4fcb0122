import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

/** Shown in place of content that failed to load (keys genericErrorBlock.title, desc1, desc2). */
export function GenericErrorBlock({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <section
      role="alert"
      className={`flex flex-col items-center gap-3 rounded-2xl border border-line bg-panel px-6 py-10 text-center ${className}`}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-status-red/10 text-status-red">
        <Icon name="warning" size={24} />
      </span>
      <h2 className="text-base font-semibold text-ink">{t('genericErrorBlock.title')}</h2>
      <p className="max-w-md text-sm text-muted">{t('genericErrorBlock.desc1')}</p>
      <p className="max-w-md text-sm text-muted">{t('genericErrorBlock.desc2')}</p>
    </section>
  );
}
