import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Page } from '../../components/Page';
import { apiError } from '../../lib/api';
import { useUser } from '../auth/auth-context';
import { useLoginModal } from '../auth/login-modal-context';
import { forgetInviteToken, inviteTokenFrom } from './invite-link';
import { useAcceptInviteLink } from './organizations.hooks';

function Panel({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto flex w-full max-w-lg flex-col items-center gap-4 rounded-2xl border border-line bg-panel px-8 py-10 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-accent/10 text-accent">
        <Icon name="users" size={28} />
      </span>
      {children}
    </section>
  );
}

/** Why the link did not work, in the server's words, and what the visitor can do about it. */
function AcceptFailure({ error }: { error: unknown }) {
  const { t } = useTranslation('organizations');
  const failure = apiError(error);
  return (
    <div role="alert" className="flex flex-col gap-1 text-sm">
      <p className="text-status-red">{failure?.message ?? t('acceptLink.failed')}</p>
      {failure?.code === 'invite_link_invalid' && <p className="text-muted">{t('acceptLink.askForNew')}</p>}
      {failure?.code === 'already_member' && (
        <Link to="/settings/organization" className="text-accent underline">
          {t('acceptLink.toOrganizations')}
        </Link>
      )}
    </div>
  );
}

/**
 * INVITE_LINK_PATH: the page an invite's secret link opens. Logged out, the visitor logs in or signs up in the modal
 * over this page (Google's redirect returns here), the token kept meanwhile; logged in, Accept joins the organisation
 * (POST /invites/accept) and shows it.
 */
export function AcceptInvitePage() {
  const { t } = useTranslation('organizations');
  const user = useUser();
  const modal = useLoginModal();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // Read once: a dead link is forgotten while its explanation still shows.
  const [token] = useState(() => inviteTokenFrom(params));
  const accept = useAcceptInviteLink();

  const join = (value: string) =>
    accept.mutate(value, {
      onSuccess: (joined) => {
        forgetInviteToken();
        void navigate(joined.url, { replace: true });
      },
      onError: (error) => {
        if (apiError(error)?.code === 'invite_link_invalid') forgetInviteToken();
      },
    });

  let body: ReactNode;
  if (!token) {
    body = (
      <p role="alert" className="text-sm text-status-red">
        {t('acceptLink.missing')}
      </p>
    );
  } else if (!user) {
    body = (
      <>
        <p className="text-sm text-muted">{t('acceptLink.loggedOut')}</p>
        <div className="flex flex-wrap justify-center gap-2">
          <Button onClick={() => modal?.open('login')}>{t('acceptLink.logIn')}</Button>
          <Button variant="secondary" onClick={() => modal?.open('signup')}>
            {t('acceptLink.signUp')}
          </Button>
        </div>
      </>
    );
  } else {
    const dead = apiError(accept.error)?.code === 'invite_link_invalid';
    const logOut = () => {
      accept.reset();
      void user.logout();
    };
    body = (
      <>
        <p className="text-sm text-muted">{t('acceptLink.loggedIn', { email: user.email ?? user.username })}</p>
        {!dead && (
          <Button disabled={accept.isPending} onClick={() => join(token)}>
            {t('acceptLink.accept')}
          </Button>
        )}
        {accept.isError && <AcceptFailure error={accept.error} />}
        <button type="button" className="text-sm text-muted underline" onClick={logOut}>
          {t('acceptLink.notYou')}
        </button>
      </>
    );
  }

  return (
    <Page name="invite" title={t('acceptLink.title')} hideHeading>
      <Panel>
        <h1 className="text-xl font-semibold text-ink">{t('acceptLink.title')}</h1>
        {body}
      </Panel>
    </Page>
  );
}
