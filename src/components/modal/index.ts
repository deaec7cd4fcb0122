export { Modal, ModalTitle } from './Modal';
export { ModalProvider } from './ModalProvider';
export type { ModalContent, ModalControls, ModalOptions } from './modal-context';
export { useModal } from './modal-context';
