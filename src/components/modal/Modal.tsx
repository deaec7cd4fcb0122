import { type ReactNode, useContext, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '../Icon';
import { ModalTitleContext } from './modal-context';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  large?: boolean;
  label?: string;
  hideCloseButton?: boolean;
  children: ReactNode;
}

/**
 * A dialog over a dimmed page: focus moves in and is trapped, Escape and the × button close it, focus returns to
 * where it was. At most 90% of the viewport high (content scrolls); large is 648px / 1100px wide (spec §9).
 */
export function Modal({ open, onClose, large, label, hideCloseButton, children }: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const node = panel.current;
    const first = node?.querySelector<HTMLElement>('[data-autofocus]') ?? node?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? node)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        return;
      }
      if (event.key !== 'Tab' || !node) return;
      const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
      const list = items.length ? items : [node];
      const firstItem = list[0] as HTMLElement;
      const lastItem = list[list.length - 1] as HTMLElement;
      if (event.shiftKey && (document.activeElement === firstItem || document.activeElement === node)) {
        event.preventDefault();
        lastItem.focus();
      } else if (!event.shiftKey && document.activeElement === lastItem) {
        event.preventDefault();
        firstItem.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;
  return createPortal(
    <div className="fixed inset-0 z-[100] flex items-center justify-center p-4">
      <div className="absolute inset-0 bg-black/70 backdrop-blur-[2px]" aria-hidden="true" onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={label ? undefined : titleId}
        aria-label={label}
        tabIndex={-1}
        data-size={large ? 'large' : 'default'}
        className={`relative flex max-h-[90vh] w-full flex-col overflow-hidden rounded-2xl border border-line bg-panel shadow-2xl shadow-black/50 outline-none ${
          large ? 'max-w-[calc(100vw-2rem)] md:max-w-modal-md 2xl:max-w-modal-xl' : 'max-w-md'
        }`}
      >
        {!hideCloseButton && (
          <button
            type="button"
            onClick={onClose}
            aria-label={t('modal.close')}
            className="absolute top-3 right-3 z-10 rounded-lg p-1.5 text-muted hover:bg-hover hover:text-ink"
          >
            <Icon name="close" size={18} />
          </button>
        )}
        <ModalTitleContext.Provider value={titleId}>
          <div className="overflow-y-auto p-6">{children}</div>
        </ModalTitleContext.Provider>
      </div>
    </div>,
    document.body,
  );
}

/** The dialog's heading; names the dialog for assistive technology. */
export function ModalTitle({ children, className = '' }: { children: ReactNode; className?: string }) {
  const id = useContext(ModalTitleContext);
  return (
    <h2 id={id} className={`pr-8 text-lg font-semibold text-ink ${className}`}>
      {children}
    </h2>
  );
}
