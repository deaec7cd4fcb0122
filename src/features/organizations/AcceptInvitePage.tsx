import type { ErrorCode } from '@portal/contract';
import type { ReactNode } from 'react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { Page } from '../../components/Page';
import { apiError } from '../../lib/api';
import { useUser } from '../auth/auth-context';
import { useLoginModal } from '../auth/login-modal-context';
import { forgetInviteToken, inviteTokenFrom } from './invite-link';
import { useAcceptInviteLink, useDeclineInviteLink, useInvitePreview } from './organizations.hooks';

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

/** Refusals the page words itself; any other is shown in the server's words. */
const EXPLAINED = [
  'invite_link_invalid',
  'invite_revoked',
  'invite_expired',
  'already_member',
] as const satisfies readonly ErrorCode[];
/** Refusals after which the link can do nothing more. */
const DEAD: readonly ErrorCode[] = ['invite_link_invalid', 'invite_revoked', 'invite_expired'];
const isDead = (error: unknown) => DEAD.some((code) => code === apiError(error)?.code);

/** Why the link did not work, and what the visitor can do about it. */
function AcceptFailure({ error }: { error: unknown }) {
  const { t } = useTranslation('organizations');
  const failure = apiError(error);
  const explained = EXPLAINED.find((code) => code === failure?.code);
  return (
    <div role="alert" className="flex flex-col gap-1 text-sm">
      <p className="text-status-red">
        {explained ? t(`acceptLink.errors.${explained}`) : (failure?.message ?? t('acceptLink.failed'))}
      </p>
      {isDead(error) && <p className="text-muted">{t('acceptLink.askForNew')}</p>}
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
  const decline = useDeclineInviteLink();
  const preview = useInvitePreview(token ?? undefined);
  // A link that can no longer be accepted says so at once, before anyone logs in for nothing.
  const deadLink = preview.isError && isDead(preview.error);
  useEffect(() => {
    if (deadLink) forgetInviteToken();
  }, [deadLink]);

  const join = (value: string) =>
    accept.mutate(value, {
      onSuccess: (joined) => {
        forgetInviteToken();
        void navigate(joined.url, { replace: true });
      },
      onError: (error) => {
        if (isDead(error)) forgetInviteToken();
      },
    });
  const refuse = (value: string) => {
    accept.reset();
    decline.mutate(value, {
      onError: (error) => {
        if (isDead(error)) forgetInviteToken();
      },
    });
  };

  let body: ReactNode;
  if (token && deadLink) {
    body = <AcceptFailure error={preview.error} />;
  } else if (!token) {
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
    const failed = accept.error ?? decline.error;
    const dead = isDead(failed);
    const logOut = () => {
      accept.reset();
      decline.reset();
      void user.logout();
    };
    body = (
      <>
        <p className="text-sm text-muted">{t('acceptLink.loggedIn', { email: user.email ?? user.username })}</p>
        {!dead && (
          <div className="flex flex-wrap justify-center gap-2">
            <Button disabled={accept.isPending} onClick={() => join(token)}>
              {t('acceptLink.accept')}
            </Button>
            {!decline.isSuccess && (
              <Button variant="secondary" disabled={decline.isPending} onClick={() => refuse(token)}>
                {t('acceptLink.decline')}
              </Button>
            )}
          </div>
        )}
        {decline.isSuccess && !accept.isError && (
          <p role="status" className="text-sm text-muted">
            {t('acceptLink.declined')}
          </p>
        )}
        {failed && <AcceptFailure error={failed} />}
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
        {preview.data && (
          <p className="text-base text-ink" data-testid="invite-preview">
            {preview.data.inviter
              ? t('acceptLink.invitedBy', {
                  inviter: preview.data.inviter,
                  organization: preview.data.organization.name,
                })
              : t('acceptLink.invitedTo', { organization: preview.data.organization.name })}
          </p>
        )}
        {body}
      </Panel>
    </Page>
  );
}
