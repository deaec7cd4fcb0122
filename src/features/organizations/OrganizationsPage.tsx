import type { Member, MyInvite, OrganizationRole } from '@portal/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { CopyControl } from '../../components/CopyControl';
import { SelectField, TextField } from '../../components/form';
import { Page } from '../../components/Page';
import { apiError } from '../../lib/api';
import { useUser } from '../auth/auth-context';
import { authErrorMessage } from '../auth/auth-errors';
import { BillingDetailsForm } from '../billing/BillingDetailsForm';
import { OrganizationSubscriptions } from '../billing/OrganizationSubscriptions';
import { useCreateOrganizationFlow } from './CreateOrganizationFlow';
import {
  useAnswerInvite,
  useMembers,
  useMyInvites,
  useOrganization,
  useOrgInvites,
  useRefreshVerification,
  useRevokeInvite,
  useSendInvite,
  useSendVerificationEmail,
  useUpdateMember,
} from './organizations.hooks';

const canManage = (role: OrganizationRole | undefined) => role === 'owner' || role === 'admin';

function MyInvites() {
  const { t } = useTranslation('organizations');
  const invites = useMyInvites();
  const answer = useAnswerInvite();
  const open = (invites.data ?? []).filter((i) => i.status !== 'accepted');
  if (open.length === 0) return null;
  const actionsFor = (invite: MyInvite) =>
    invite.status === 'pending' ? (
      <>
        <Button size="sm" onClick={() => answer.mutate({ action: 'accept', organization: invite.organization.id })}>
          {t('invites.accept')}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => answer.mutate({ action: 'decline', organization: invite.organization.id })}
        >
          {t('invites.decline')}
        </Button>
      </>
    ) : (
      <Button
        size="sm"
        onClick={() => answer.mutate({ action: 'acceptDeclined', organization: invite.organization.id })}
      >
        {t('invites.acceptDeclined')}
      </Button>
    );
  return (
    <section aria-labelledby="my-invites" className="rounded-2xl border border-line bg-panel p-5">
      <h2 id="my-invites" className="mb-3 text-base font-semibold text-ink">
        {t('invites.mineTitle')}
      </h2>
      <ul className="flex flex-col divide-y divide-line">
        {open.map((invite) => (
          <li key={invite.organization.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <span className="text-sm text-ink">
              {t(invite.status === 'pending' ? 'invites.pendingFrom' : 'invites.declinedFrom', {
                name: invite.organization.name,
              })}
            </span>
            <span className="flex gap-2">{actionsFor(invite)}</span>
          </li>
        ))}
      </ul>
      {answer.isError && (
        <p role="alert" className="mt-2 text-sm text-status-red">
          {apiError(answer.error)?.message ?? t('invites.answerFailed')}
        </p>
      )}
    </section>
  );
}

/**
 * The server lists and hands over invites addressed to an e-mail only once its owner proved it (docs/adr/0007):
 * an unverified user is told why none show and gets the way to verify, then to tell the portal they did.
 */
function VerifyEmailNotice({ email }: { email: string }) {
  const { t } = useTranslation('organizations');
  const { t: tAuth } = useTranslation('auth');
  const send = useSendVerificationEmail();
  const refresh = useRefreshVerification();
  return (
    <section
      aria-labelledby="verify-email"
      className="flex flex-col gap-3 rounded-2xl border border-status-yellow/40 bg-status-yellow/10 p-5"
    >
      <h2 id="verify-email" className="text-base font-semibold text-ink">
        {t('verify.title')}
      </h2>
      <p className="text-sm text-ink">{t('verify.text', { email })}</p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" disabled={send.isPending} onClick={() => send.mutate()}>
          {t('verify.send')}
        </Button>
        <Button size="sm" variant="secondary" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
          {t('verify.refresh')}
        </Button>
      </div>
      {send.isSuccess && (
        <p role="status" className="text-sm text-muted">
          {t('verify.sent', { email })}
        </p>
      )}
      {send.isError && (
        <p role="alert" className="text-sm text-status-red">
          {authErrorMessage(send.error, tAuth).text}
        </p>
      )}
      {refresh.isSuccess && (
        <p role="alert" className="text-sm text-status-red">
          {t('verify.stillUnverified')}
        </p>
      )}
      {refresh.isError && (
        <p role="alert" className="text-sm text-status-red">
          {authErrorMessage(refresh.error, tAuth).text}
        </p>
      )}
    </section>
  );
}

/** The invite's secret link, shown once: the portal sends no e-mail, so the inviter passes it on. */
function CreatedInviteLink({ email, link }: { email: string; link: string }) {
  const { t } = useTranslation('organizations');
  return (
    <div role="status" className="flex flex-col gap-2 rounded-xl border border-accent/40 bg-accent/5 p-4">
      <p className="text-sm font-medium text-ink">{t('invites.created', { email })}</p>
      <p className="text-sm text-muted">{t('invites.shareLink')}</p>
      <div className="flex items-end gap-2">
        <TextField
          label={t('invites.linkLabel')}
          value={link}
          readOnly
          onFocus={(event) => event.target.select()}
          className="min-w-0 flex-1"
        />
        <CopyControl value={link} label={t('invites.copyLink')} className="mb-1" />
      </div>
    </div>
  );
}

function InviteForm({ orgId }: { orgId: string }) {
  const { t } = useTranslation('organizations');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<{ email: string; link: string }>();
  const send = useSendInvite(orgId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(undefined);
    send.mutate(email, {
      onSuccess: (link) => {
        setCreated({ email: email.trim().toLowerCase(), link });
        setEmail('');
      },
    });
  };
  return (
    <>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <TextField
          label={t('invites.emailLabel')}
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="min-w-64 flex-1"
          error={send.isError ? (apiError(send.error)?.message ?? t('invites.sendFailed')) : undefined}
        />
        <Button type="submit" disabled={!email.includes('@') || send.isPending}>
          {t('invites.send')}
        </Button>
      </form>
      {created && <CreatedInviteLink email={created.email} link={created.link} />}
    </>
  );
}

function OrganizationDetails({ orgId }: { orgId: string }) {
  const { t } = useTranslation('organizations');
  const org = useOrganization(orgId);
  const role = org.data?.role;
  const members = useMembers(orgId);
  const invites = useOrgInvites(orgId, canManage(role));
  const revoke = useRevokeInvite(orgId);
  const update = useUpdateMember(orgId);

  if (org.isError) return <p className="text-sm text-status-red">{t('details.notFound')}</p>;
  if (!org.data) return null;

  const roleCell = (member: Member) =>
    role === 'owner' && member.role !== 'owner' ? (
      <SelectField
        label={t('members.roleLabel')}
        value={member.role}
        options={[
          { value: 'member', label: t('roles.member') },
          { value: 'admin', label: t('roles.admin') },
        ]}
        onChange={(event) =>
          update.mutate({ forMember: member.userId, role: event.target.value === 'admin' ? 'admin' : 'member' })
        }
      />
    ) : (
      t(`roles.${member.role}`)
    );

  return (
    <div className="flex flex-col gap-6">
      <CardSection
        title={t('members.title', { name: org.data.name })}
        defaultView="list"
        columns={[
          { key: 'email', header: t('members.email') },
          { key: 'role', header: t('members.role') },
        ]}
        rows={(members.data ?? []).map((m) => ({
          id: m.userId,
          name: m.displayName ?? m.email ?? m.userId,
          records: { email: m.email ?? '', role: roleCell(m) },
        }))}
      />
      <OrganizationSubscriptions orgId={orgId} canBuy={canManage(role)} />
      <BillingDetailsForm orgId={orgId} readOnly={!canManage(role)} />
      {canManage(role) && (
        <section
          aria-labelledby="org-invites"
          className="flex flex-col gap-4 rounded-2xl border border-line bg-panel p-5"
        >
          <div>
            <h2 id="org-invites" className="text-base font-semibold text-ink">
              {t('invites.title')}
            </h2>
            <p className="mt-1 text-sm text-muted">{t('invites.howTheyJoin')}</p>
          </div>
          <InviteForm orgId={orgId} />
          <CardSection
            defaultView="list"
            columns={[
              { key: 'status', header: t('invites.status'), colored: true },
              { key: 'acceptedBy', header: t('invites.acceptedBy') },
            ]}
            emptyText={t('invites.none')}
            rows={(invites.data ?? []).map((invite) => ({
              id: invite.email,
              name: invite.email,
              status: invite.status === 'accepted' ? 'green' : invite.status === 'declined' ? 'red' : 'yellow',
              records: { status: t(`invites.statuses.${invite.status}`), acceptedBy: invite.acceptedBy ?? '' },
              ...(invite.status !== 'accepted' && {
                actionButton: {
                  text: t('invites.revoke'),
                  color: 'red' as const,
                  action: () => revoke.mutate(invite.email),
                },
              }),
            }))}
          />
        </section>
      )}
    </div>
  );
}

/** /settings/organization: the caller's organisations (Beta), invitations, members, subscriptions and invites. */
export function OrganizationsPage() {
  const { t } = useTranslation('organizations');
  const user = useUser();
  const [params] = useSearchParams();
  const startCreate = useCreateOrganizationFlow();
  const teams = user?.teams ?? [];
  const selected = params.get('org') ?? teams[0]?.id;

  return (
    <Page
      name="organization"
      title={t('title')}
      subtitle={t('subtitle')}
      actions={<Button onClick={() => startCreate()}>{t('create.open')}</Button>}
    >
      {user?.emailVerified === false && user.email && <VerifyEmailNotice email={user.email} />}
      <MyInvites />
      {teams.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line p-8 text-center text-sm text-muted">{t('empty')}</p>
      ) : (
        <nav aria-label={t('title')} className="flex flex-wrap gap-2">
          {teams.map((team) => (
            <Link
              key={team.id}
              to={`?org=${team.id}`}
              aria-current={team.id === selected ? 'page' : undefined}
              className="rounded-lg border border-line px-3 py-1.5 text-sm text-muted aria-[current=page]:border-accent aria-[current=page]:text-ink"
            >
              {team.name} · {t(`roles.${team.role}`)}
            </Link>
          ))}
        </nav>
      )}
      {selected && <OrganizationDetails orgId={selected} />}
    </Page>
  );
}
