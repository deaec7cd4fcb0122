import { createContext, type ReactNode, useContext } from 'react';

export interface ModalOptions {
  /** Large size: 648px wide on medium screens, 1100px on very large ones (spec §9). */
  large?: boolean;
  /** Runs after the modal has closed. */
  onClose?: () => void;
  /** Accessible name when the content has no <ModalTitle>. */
  label?: string;
  /** Hide the × button (e.g. a loading step). Escape still closes. */
  hideCloseButton?: boolean;
}

export type ModalContent = ReactNode | ((controls: { close: () => void }) => ReactNode);

export interface ModalControls {
  isOpen: boolean;
  /** Shows content in the one modal host, replacing what it showed. */
  open(content: ModalContent, options?: ModalOptions): void;
  /** Hides the modal, then runs the close callbacks. */
  close(): void;
  /** Adds a callback run (once) when the current modal closes. */
  onClose(callback: () => void): void;
}

export const ModalContext = createContext<ModalControls | undefined>(undefined);

export function useModal(): ModalControls {
  const modal = useContext(ModalContext);
  if (!modal) throw new Error('useModal must be used within the modal provider (ModalProvider).');
  return modal;
}

export const ModalTitleContext = createContext<string | undefined>(undefined);
