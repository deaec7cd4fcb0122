import {
  deleteOrganizationBodySchema,
  inviteEmailBodySchema,
  type Member,
  type MyInvite,
  memberRefBodySchema,
  ORGANIZATION_NAME_MAX,
  type Organization,
  type OrganizationRole,
  type OrgInvite,
  organizationRoles,
  organizationTokenTransferBodySchema,
  renameOrganizationBodySchema,
} from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { CardSection } from '../../components/CardSection';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyControl } from '../../components/CopyControl';
import { SelectField, TextField } from '../../components/form';
import { ModalTitle, useModal } from '../../components/modal';
import { Page } from '../../components/Page';
import { apiError } from '../../lib/api';
import { useZodForm } from '../../lib/forms/useZodForm';
import { ApiKeysSection } from '../api-keys/ApiKeysSection';
import { WebhooksSection } from '../api-keys/WebhooksSection';
import { useActiveOrganization } from '../auth/active-organization';
import { useUser } from '../auth/auth-context';
import { authErrorMessage } from '../auth/auth-errors';
import { BillingDetailsForm } from '../billing/BillingDetailsForm';
import { OrganizationSubscriptions } from '../billing/OrganizationSubscriptions';
import { useCreateOrganizationFlow } from './CreateOrganizationFlow';
import {
  useAnswerInvite,
  useDeleteOrganization,
  useLeaveOrganization,
  useMembers,
  useMyInvites,
  useOrganization,
  useOrgInvites,
  useRefreshVerification,
  useRemoveMember,
  useRenameOrganization,
  useRevokeInvite,
  useSendInvite,
  useSendVerificationEmail,
  useTransferOwnership,
  useTransferTokens,
  useUpdateMember,
} from './organizations.hooks';

const canManage = (role: OrganizationRole | undefined) => role === 'owner' || role === 'admin';

function MyInvites() {
  const { t } = useTranslation('organizations');
  const invites = useMyInvites();
  const answer = useAnswerInvite();
  const open = (invites.data ?? []).filter((i) => i.status === 'pending' || i.status === 'declined');
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

/**
 * The invite's secret link, shown once. The inviter may always pass it on; it says the portal e-mailed it only when
 * the server did (a portal without a mail server keeps it in the outbox).
 */
function CreatedInviteLink({ email, link, mailed }: { email: string; link: string; mailed: boolean }) {
  const { t } = useTranslation('organizations');
  return (
    <div role="status" className="flex flex-col gap-2 rounded-xl border border-accent/40 bg-accent/5 p-4">
      <p className="text-sm font-medium text-ink">{t('invites.created', { email })}</p>
      <p className="text-sm text-muted" data-testid="invite-link-mailed">
        {t(mailed ? 'invites.shareLink' : 'invites.shareLinkNotMailed', { email })}
      </p>
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
  const [created, setCreated] = useState<{ email: string; link: string; mailed: boolean }>();
  const send = useSendInvite(orgId);
  const form = useZodForm({
    initialValues: { email: '' },
    schema: inviteEmailBodySchema,
    toBody: (v) => ({ email: v.email.trim() }),
    submit: (body) => {
      setCreated(undefined);
      return send.mutateAsync(body.email);
    },
    onSuccess: ({ link, mailed }, body) => {
      setCreated({ email: body.email.toLowerCase(), link, mailed });
      form.reset();
    },
    ns: 'organizations',
    failedText: t('invites.sendFailed'),
  });
  return (
    <>
      <form onSubmit={form.handleSubmit} className="flex flex-wrap items-end gap-3">
        <TextField
          label={t('invites.emailLabel')}
          type="email"
          value={form.values.email}
          onChange={(event) => form.set('email')(event.target.value)}
          className="min-w-64 flex-1"
          error={form.errors.email ?? form.general}
        />
        <Button type="submit" disabled={!form.values.email.includes('@') || form.pending}>
          {t('invites.send')}
        </Button>
      </form>
      {created && <CreatedInviteLink {...created} />}
    </>
  );
}

/** The SPA knows the caller by e-mail (the portal's user id is not in the login state). */
const isCaller = (member: Member, email: string | null | undefined) =>
  !!email && member.email?.toLowerCase() === email.toLowerCase();

const inviteColor = (status: OrgInvite['status']) =>
  status === 'accepted' ? 'green' : status === 'pending' ? 'yellow' : 'red';

/** Asks for the organisation's name typed again; its subscriptions end first, on the server (docs/adr/0026). */
function DeleteOrganizationDialog({ orgId, name, onClose }: { orgId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation('organizations');
  const remove = useDeleteOrganization(orgId);
  const navigate = useNavigate();
  const form = useZodForm({
    initialValues: { name: '' },
    schema: deleteOrganizationBodySchema,
    submit: (body) => remove.mutateAsync(body.name),
    onSuccess: () => {
      onClose();
      void navigate('/settings/organization', { replace: true });
    },
    ns: 'organizations',
    failedText: t('manage.failed'),
  });
  const typed = form.values.name;
  return (
    <form onSubmit={form.handleSubmit} className="flex flex-col gap-4">
      <ModalTitle>{t('manage.deleteTitle', { name })}</ModalTitle>
      <p className="text-sm text-muted">{t('manage.deleteText')}</p>
      <TextField
        label={t('manage.deleteConfirmLabel', { name })}
        value={typed}
        onChange={(event) => form.set('name')(event.target.value)}
        autoComplete="off"
        data-autofocus
      />
      {form.general && (
        <p role="alert" className="text-sm text-status-red">
          {form.general}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onClose}>
          {t('manage.cancel')}
        </Button>
        <Button type="submit" variant="danger" disabled={typed.trim() !== name || form.pending}>
          {t('manage.deleteSubmit')}
        </Button>
      </div>
    </form>
  );
}

/** Owners and admins: the name, the organisation's tokens, ownership (owners) and deletion. Everyone: leaving. */
function ManageOrganization({ org, members }: { org: Organization; members: Member[] }) {
  const { t } = useTranslation('organizations');
  const user = useUser();
  const modal = useModal();
  const navigate = useNavigate();
  const manager = canManage(org.role);
  const rename = useRenameOrganization(org.id);
  const tokens = useTransferTokens(org.id);
  const transfer = useTransferOwnership(org.id);
  const leave = useLeaveOrganization(org.id);
  const others = members.filter((m) => !isCaller(m, user?.email));
  const failed = t('manage.failed');
  const nameForm = useZodForm({
    initialValues: { name: org.name },
    schema: renameOrganizationBodySchema,
    submit: (body) => rename.mutateAsync(body.name),
    ns: 'organizations',
    failedText: failed,
  });
  const tokensForm = useZodForm({
    initialValues: { tokenAmount: '' },
    schema: organizationTokenTransferBodySchema,
    toBody: (v) => ({ tokenAmount: Number.parseInt(v.tokenAmount, 10) }),
    submit: (body) => tokens.mutateAsync(body.tokenAmount),
    onSuccess: () => tokensForm.reset(),
    ns: 'organizations',
    failedText: failed,
  });
  const heirForm = useZodForm({
    initialValues: { forMember: '' },
    schema: memberRefBodySchema,
    toBody: (v) => ({ forMember: v.forMember || (others[0]?.userId ?? '') }),
    submit: (body) => transfer.mutateAsync(body.forMember),
    ns: 'organizations',
    failedText: failed,
  });
  const failure =
    nameForm.general ??
    tokensForm.general ??
    heirForm.general ??
    (leave.isError ? (apiError(leave.error)?.message ?? failed) : undefined);
  const name = nameForm.values.name;
  return (
    <section aria-labelledby="org-manage" className="flex flex-col gap-5 rounded-2xl border border-line bg-panel p-5">
      <div>
        <h2 id="org-manage" className="text-base font-semibold text-ink">
          {t('manage.title')}
        </h2>
        <p className="mt-1 text-sm text-muted" data-testid="organization-tokens">
          {t('manage.tokens', { count: org.tokenAmount })}
        </p>
      </div>
      {manager && (
        <form className="flex flex-wrap items-end gap-3" onSubmit={nameForm.handleSubmit}>
          <TextField
            label={t('manage.nameLabel')}
            value={name}
            maxLength={ORGANIZATION_NAME_MAX}
            onChange={(event) => nameForm.set('name')(event.target.value)}
            className="min-w-64 flex-1"
          />
          <Button type="submit" variant="secondary" disabled={!name.trim() || name === org.name || nameForm.pending}>
            {t('manage.rename')}
          </Button>
        </form>
      )}
      {manager && (
        <form className="flex flex-wrap items-end gap-3" onSubmit={tokensForm.handleSubmit}>
          <TextField
            label={t('manage.tokensLabel')}
            hint={t('manage.tokensHint')}
            type="number"
            min={1}
            value={tokensForm.values.tokenAmount}
            onChange={(event) => tokensForm.set('tokenAmount')(event.target.value)}
            error={tokensForm.values.tokenAmount === '' ? undefined : tokensForm.errors.tokenAmount}
            className="min-w-64 flex-1"
          />
          <Button type="submit" variant="secondary" disabled={!tokensForm.valid || tokensForm.pending}>
            {t('manage.tokensSubmit')}
          </Button>
        </form>
      )}
      {org.role === 'owner' && others.length > 0 && (
        <form className="flex flex-wrap items-end gap-3" onSubmit={heirForm.handleSubmit}>
          <SelectField
            label={t('manage.transferLabel')}
            value={heirForm.values.forMember || (others[0]?.userId ?? '')}
            onChange={(event) => heirForm.set('forMember')(event.target.value)}
            options={others.map((m) => ({ value: m.userId, label: m.email ?? m.displayName ?? m.userId }))}
            className="min-w-64 flex-1"
          />
          <Button type="submit" variant="secondary" disabled={heirForm.pending}>
            {t('manage.transfer')}
          </Button>
        </form>
      )}
      {failure !== undefined && (
        <p role="alert" className="text-sm text-status-red">
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-2 border-t border-line pt-4">
        <Button
          variant="secondary"
          disabled={leave.isPending}
          onClick={() => leave.mutate(undefined, { onSuccess: () => void navigate('/settings/organization') })}
        >
          {t('manage.leave')}
        </Button>
        {manager && (
          <Button
            variant="danger"
            onClick={() =>
              modal.open(({ close }) => <DeleteOrganizationDialog orgId={org.id} name={org.name} onClose={close} />)
            }
          >
            {t('manage.delete')}
          </Button>
        )}
      </div>
    </section>
  );
}

function OrganizationDetails({ orgId }: { orgId: string }) {
  const { t } = useTranslation('organizations');
  const user = useUser();
  const org = useOrganization(orgId);
  const role = org.data?.role;
  const members = useMembers(orgId);
  const invites = useOrgInvites(orgId, canManage(role));
  const revoke = useRevokeInvite(orgId);
  const update = useUpdateMember(orgId);
  const remove = useRemoveMember(orgId);
  const modal = useModal();

  if (org.isError) return <p className="text-sm text-status-red">{t('details.notFound')}</p>;
  if (!org.data) return null;

  const roleCell = (member: Member) =>
    role === 'owner' && !isCaller(member, user?.email) ? (
      <SelectField
        label={t('members.roleLabel')}
        value={member.role}
        options={organizationRoles.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
        onChange={(event) => {
          const next = organizationRoles.find((r) => r === event.target.value);
          if (next) update.mutate({ forMember: member.userId, role: next });
        }}
      />
    ) : (
      t(`roles.${member.role}`)
    );
  const removable = (member: Member) =>
    !isCaller(member, user?.email) && (role === 'owner' || (role === 'admin' && member.role === 'member'));
  const memberError = [update, remove].find((m) => m.isError)?.error;
  const memberName = (member: Member) => member.displayName ?? member.email ?? member.userId;
  const confirmRemove = (member: Member, organization: string) =>
    modal.open(({ close }) => (
      <ConfirmDialog
        danger
        title={t('members.removeTitle', { name: memberName(member) })}
        confirmText={t('members.removeConfirm')}
        onClose={close}
        onConfirm={async () => {
          await remove.mutateAsync(member.userId);
          close();
        }}
      >
        {t('members.removeText', { name: memberName(member), organization })}
      </ConfirmDialog>
    ));

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
          name: memberName(m),
          records: { email: m.email ?? '', role: roleCell(m) },
          ...(removable(m) && {
            actionButton: {
              text: t('members.remove'),
              color: 'red' as const,
              action: () => confirmRemove(m, org.data.name),
            },
          }),
        }))}
      />
      {memberError !== undefined && (
        <p role="alert" className="text-sm text-status-red">
          {apiError(memberError)?.message ?? t('manage.failed')}
        </p>
      )}
      <ManageOrganization org={org.data} members={members.data ?? []} />
      <OrganizationSubscriptions orgId={orgId} canBuy={canManage(role)} />
      <BillingDetailsForm orgId={orgId} readOnly={!canManage(role)} />
      {canManage(role) && <ApiKeysSection orgId={orgId} />}
      {canManage(role) && <WebhooksSection orgId={orgId} />}
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
              status: inviteColor(invite.status),
              records: { status: t(`invites.statuses.${invite.status}`), acceptedBy: invite.acceptedBy ?? '' },
              ...(invite.status === 'pending' && {
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
  const active = useActiveOrganization();
  const selected = params.get('org') ?? active?.id ?? teams[0]?.id;

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
