import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { emulatorClient } from '../../server/src/dev/auth-emulator';
import { signUp, signUpInOpenModal } from './support/auth';
import { launchBrowser, newSession, type Session } from './support/browser';

/** Two sign-ups and an organisation per journey take a minute when the machine is shared; the default is 90 s. */
const JOURNEY_TIMEOUT_MS = 180_000;

describe('organisations in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  /** Signs up an owner who creates an organisation and lands on its page; answers the session and the name. */
  async function ownerWithOrganization() {
    const owner = await newSession(browser);
    await signUp(owner);
    await owner.goto('/settings/organization');
    const name = `Polder Surveys ${randomUUID().slice(0, 8)}`;
    await owner.page.getByRole('button', { name: 'Create organisation' }).first().click();
    await owner.page.getByLabel('Organisation name:').fill(name);
    await owner.page.getByRole('dialog').getByRole('button', { name: 'Create organisation' }).click();
    await owner.page.getByRole('heading', { name: 'Organisation Created' }).waitFor();
    // The dialog fades in: wait for the message to show rather than sampling it once.
    await owner.page.getByText(`Your organisation, ${name}, has been created.`).waitFor();
    const events = await owner.page.evaluate(() => (window as { dataLayer?: unknown[] }).dataLayer ?? []);
    expect(events).toContainEqual(expect.objectContaining({ event: 'organizationCreated', name }));
    await owner.page.getByRole('button', { name: 'Visit Organisation' }).click();
    await owner.page.waitForURL(/\/settings\/organization\?org=/);
    return { owner, name };
  }

  async function invite(owner: Session, email: string) {
    await owner.page.getByLabel('Invite by e-mail:').fill(email);
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    await owner.page.getByText(`Invitation for ${email.toLowerCase()} created.`).waitFor();
  }

  it(
    'gives the owner a link to copy; a colleague who signs up on it joins, and both see the organisation',
    async () => {
      const { owner, name } = await ownerWithOrganization();
      const colleagueEmail = `colleague-${randomUUID().slice(0, 8)}@example.test`;
      await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: inject('baseURL') });
      await invite(owner, colleagueEmail);
      await owner.page
        .getByText(`The portal also e-mails this link to ${colleagueEmail.toLowerCase()}.`, { exact: false })
        .waitFor();
      await owner.page.getByRole('button', { name: 'Copy invite link' }).click();
      await owner.page.getByRole('button', { name: 'Copied' }).waitFor();
      const link = await owner.page.evaluate(() => navigator.clipboard.readText());
      expect(link).toBe(await owner.page.getByLabel('Invite link:').inputValue());
      const url = new URL(link);
      expect(url.origin + url.pathname).toBe(`${inject('baseURL')}/invites/accept`);
      expect(url.searchParams.get('token')).toMatch(/^[\w-]{43}$/);

      // The colleague has no account yet and another address than the one invited: the link is the proof.
      const colleague = await newSession(browser);
      await colleague.page.goto(link);
      await colleague.page.getByRole('heading', { name: 'Organisation invitation' }).waitFor();
      // The secret left the address bar (page views and Tag Manager read it) but not the tab.
      expect(new URL(colleague.page.url()).search).toBe('');
      await colleague.page.getByRole('main').getByRole('button', { name: 'Sign up' }).click();
      const account = await signUpInOpenModal(colleague);
      await colleague.page.getByText(`makes your account ${account.email} a member`, { exact: false }).waitFor();
      await colleague.page.getByRole('button', { name: 'Accept invitation' }).click();
      await colleague.page.waitForURL(/\/settings\/organization\?org=/);
      await colleague.page.getByRole('heading', { name: `Members of ${name}` }).waitFor();
      await colleague.page.getByRole('link', { name: `${name} · Member` }).waitFor();

      await owner.page.reload();
      await owner.page.getByRole('heading', { name: `Members of ${name}` }).waitFor();
      await owner.page.getByText(account.email.toLowerCase()).first().waitFor();
      await owner.page.getByText('Accepted', { exact: true }).first().waitFor();
      await owner.screenshot('organization-1440');

      // Used once: the same link opened again is refused with the server's explanation.
      await colleague.page.goto(link);
      await colleague.page.getByRole('button', { name: 'Accept invitation' }).click();
      await colleague.page.getByText('This invite link is not valid or has already been used.').waitFor();
      await owner.context.close();
      await colleague.context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'shows an invite to its unverified addressee only after they verify the address',
    async () => {
      const { owner, name } = await ownerWithOrganization();
      const invitee = await newSession(browser);
      const account = await signUp(invitee);
      await invite(owner, account.email);

      const invitesAnswered = invitee.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/invites');
      await invitee.goto('/settings/organization');
      await invitesAnswered;
      const notice = invitee.page.getByRole('region', { name: 'Verify your e-mail address' });
      await notice
        .getByText(`Invitations sent to ${account.email} show here once you have verified`, { exact: false })
        .waitFor();
      expect(await invitee.page.getByText(`${name} invited you to join.`).count()).toBe(0);

      await notice.getByRole('button', { name: 'Send verification e-mail' }).click();
      await notice.getByText(`We sent a verification e-mail to ${account.email}.`, { exact: false }).waitFor();
      const codes = await emulatorClient(inject('authEmulatorHost')).oobCodes();
      const mail = codes.find((c) => c.requestType === 'VERIFY_EMAIL' && c.email === account.email.toLowerCase());
      expect(mail).toBeDefined();
      // The invitee clicks the link in the e-mail: a new tab, which the emulator sends back to the portal.
      const mailTab = await invitee.context.newPage();
      await mailTab.goto(mail?.oobLink ?? '');
      await mailTab.waitForURL(/\/settings\/organization/);
      await mailTab.close();

      await notice.getByRole('button', { name: 'I have verified my e-mail' }).click();
      await invitee.page.getByText(`${name} invited you to join.`).waitFor();
      expect(await notice.count()).toBe(0);
      await invitee.page.getByRole('button', { name: 'Accept', exact: true }).click();
      await invitee.page.getByRole('heading', { name: `Members of ${name}` }).waitFor();
      await owner.context.close();
      await invitee.context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it('explains a taken name and keeps it for Try Again', async () => {
    const s = await newSession(browser);
    await signUp(s);
    await s.goto('/settings/organization');
    const taken = `Taken ${Date.now() % 100000}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      await s.page.getByRole('button', { name: 'Create organisation' }).first().click();
      await s.page.getByLabel('Organisation name:').fill(taken);
      await s.page.getByRole('dialog').getByRole('button', { name: 'Create organisation' }).click();
      if (attempt === 0) {
        await s.page.getByRole('button', { name: 'Visit Organisation' }).click();
      }
    }
    await s.page.getByRole('heading', { name: 'Organisation Creation Failed' }).waitFor();
    await s.page.getByText('This name is already taken.').waitFor();
    await s.page.getByRole('button', { name: 'Try Again' }).click();
    await expect(s.page.getByLabel('Organisation name:').inputValue()).resolves.toBe(taken);
    await s.context.close();
  });
});
