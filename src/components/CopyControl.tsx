import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';

/** Spec §9: the success icon shows for 2000 ms after copying. */
export const COPY_CONFIRMATION_MS = 2000;

/** Copies `value` to the clipboard on request; `copied` stays true for 2 seconds afterwards. */
export function useCopy(value: string): { copied: boolean; copy: () => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
  }, [value]);
  return { copied, copy };
}

/** A button copying `value` to the clipboard; shows a check for 2 seconds afterwards. */
export function CopyControl({ value, label, className = '' }: { value: string; label?: string; className?: string }) {
  const { t } = useTranslation();
  const { copied, copy } = useCopy(value);

  return (
    <button
      type="button"
      onClick={copy}
      aria-label={copied ? t('copy.copied') : (label ?? t('copy.copy'))}
      title={copied ? t('copy.copied') : (label ?? t('copy.copy'))}
      data-copied={copied}
      className={`inline-flex size-8 items-center justify-center rounded-lg text-muted hover:bg-hover hover:text-ink ${className}`}
    >
      <Icon name={copied ? 'check' : 'copy'} size={16} className={copied ? 'text-status-green' : undefined} />
      <span className="sr-only" aria-live="polite">
        {copied ? t('copy.copied') : ''}
      </span>
    </button>
  );
}
