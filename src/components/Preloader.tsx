import { useTranslation } from 'react-i18next';

/** Spinner with an accessible name; fullScreen centres it in the viewport (auth loading, page chunks). */
export function Preloader({ fullScreen = false, label }: { fullScreen?: boolean; label?: string }) {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      aria-live="polite"
      className={`flex items-center justify-center ${fullScreen ? 'fixed inset-0 z-50 bg-surface' : 'py-16'}`}
    >
      <span
        className="size-9 rounded-full border-[3px] border-line border-t-accent"
        style={{ animation: 'portal-spin 0.8s linear infinite' }}
        aria-hidden="true"
      />
      <span className="sr-only">{label ?? t('loading')}</span>
    </div>
  );
}
