import { Suspense, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { Checkbox } from '../../components/form';
import { Modal, ModalTitle } from '../../components/modal';
import { Preloader } from '../../components/Preloader';
import type { LoggedInUser } from './auth-context';
import { TermsLabel } from './TermsLabel';
import { useAcceptTerms, useTermsAcceptedAt, useTermsVersion } from './terms.hooks';
import { forgetTermsIntent, hasTermsIntent } from './terms-intent';

type AcceptTerms = ReturnType<typeof useAcceptTerms>;

/** Accepting is the only way into the app; the dialog has no × and ignores Escape and the backdrop. */
function TermsDialog({ accept, onLogout }: { accept: AcceptTerms; onLogout: () => void }) {
  const { t } = useTranslation('auth');
  const [ticked, setTicked] = useState(false);
  const version = useTermsVersion();
  return (
    <Modal open onClose={() => {}} hideCloseButton>
      <div data-testid="terms-dialog" className="flex flex-col gap-4">
        <div>
          <ModalTitle>{t('auth.terms.title')}</ModalTitle>
          <p className="mt-1 text-sm text-muted">
            {version ? t('auth.terms.version', { version }) : t('auth.terms.explanation')}
          </p>
        </div>
        <Checkbox
          name="acceptTerms"
          data-testid="terms-dialog-box"
          data-autofocus
          checked={ticked}
          onChange={(e) => setTicked(e.target.checked)}
          label={<TermsLabel />}
        />
        {accept.isError && (
          <p role="alert" className="text-sm text-status-red">
            {t('auth.terms.failed')}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" data-testid="terms-dialog-logout" onClick={onLogout}>
            {t('auth.terms.logout')}
          </Button>
          <Button
            data-testid="terms-dialog-continue"
            disabled={!ticked || accept.isPending}
            onClick={() => accept.mutate(version)}
          >
            {t('auth.terms.continue')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}

/**
 * The terms gate of a signed-in user (TermsGate): a user without an acceptance (a Google account the log-in view
 * created) gets a blocking dialog, and the app behind it is hidden (`onBlockingChange`); one who ticked the box
 * before a Google sign-up has it recorded without asking. `paused` while the login modal works: an e-mail sign-up
 * records its acceptance itself before it finishes.
 */
export function UserTermsGate({
  user,
  paused,
  onBlockingChange,
}: {
  user: LoggedInUser;
  paused: boolean;
  onBlockingChange: (blocking: boolean) => void;
}) {
  const acceptedAt = useTermsAcceptedAt();
  const accept = useAcceptTerms();
  const missing = acceptedAt === null && !paused;
  const intended = missing && hasTermsIntent();
  const recordedFor = useRef<string>(undefined);

  // Before the browser paints: the app must not show for a frame behind a missing acceptance.
  useLayoutEffect(() => {
    onBlockingChange(missing);
    return () => onBlockingChange(false);
  }, [missing, onBlockingChange]);

  useEffect(() => {
    if (acceptedAt) forgetTermsIntent();
  }, [acceptedAt]);

  useEffect(() => {
    // Once per user, also when React runs the effect twice: the intent is spent whatever the answer.
    if (!intended || recordedFor.current === user.uid) return;
    recordedFor.current = user.uid;
    accept.mutate(undefined, { onSettled: forgetTermsIntent });
  }, [intended, user, accept.mutate]);

  if (!missing) return null;
  if (intended && !accept.isError) return <Preloader fullScreen />;
  return (
    <Suspense fallback={<Preloader fullScreen />}>
      <TermsDialog accept={accept} onLogout={() => void user.logout()} />
    </Suspense>
  );
}
