import type { TFunction } from 'i18next';
import { useCallback, useRef, useState } from 'react';
import { type AuthMessage, authErrorMessage } from './auth-errors';

/**
 * Runs one authentication call for a form: shows the info message while it runs, the mapped error when it fails,
 * and reports busy to the modal (which stays open until the call has finished).
 */
export function useAuthAction(t: TFunction, onBusyChange?: (busy: boolean) => void, initial?: AuthMessage) {
  const [message, setMessage] = useState<AuthMessage | undefined>(initial);
  const [busy, setBusyState] = useState(false);
  const running = useRef(false);

  const setBusy = useCallback(
    (value: boolean) => {
      running.current = value;
      setBusyState(value);
      onBusyChange?.(value);
    },
    [onBusyChange],
  );

  const run = useCallback(
    async (info: string, action: () => Promise<void>): Promise<boolean> => {
      if (running.current) return false;
      setMessage({ type: 'info', text: info });
      setBusy(true);
      try {
        await action();
        return true;
      } catch (error) {
        setMessage(authErrorMessage(error, t));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [setBusy, t],
  );

  return { message, setMessage, busy, run };
}
