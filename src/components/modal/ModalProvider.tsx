import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { Modal } from './Modal';
import { type ModalContent, ModalContext, type ModalControls, type ModalOptions } from './modal-context';

/** The one modal host of the app (spec §2): pages call useModal().open(content) instead of mounting dialogs. */
export function ModalProvider({ children }: { children: ReactNode }) {
  const [content, setContent] = useState<ModalContent | null>(null);
  const [options, setOptions] = useState<ModalOptions>({});
  const callbacks = useRef<Array<() => void>>([]);

  const close = useCallback(() => {
    setContent(null);
    const pending = callbacks.current;
    callbacks.current = [];
    // Callbacks run after the modal is hidden.
    queueMicrotask(() => {
      for (const callback of pending) callback();
    });
  }, []);

  const open = useCallback((next: ModalContent, nextOptions: ModalOptions = {}) => {
    callbacks.current = nextOptions.onClose ? [nextOptions.onClose] : [];
    setOptions(nextOptions);
    setContent(() => next);
  }, []);

  const onClose = useCallback((callback: () => void) => {
    callbacks.current.push(callback);
  }, []);

  const controls = useMemo<ModalControls>(
    () => ({ isOpen: content !== null, open, close, onClose }),
    [content, open, close, onClose],
  );

  return (
    <ModalContext.Provider value={controls}>
      {children}
      <Modal
        open={content !== null}
        onClose={close}
        large={options.large}
        label={options.label}
        hideCloseButton={options.hideCloseButton}
      >
        {typeof content === 'function' ? content({ close }) : content}
      </Modal>
    </ModalContext.Provider>
  );
}
