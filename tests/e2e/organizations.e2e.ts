import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { emulatorClient } from '../../server/src/dev/auth-emulator';
import { startSmtpServer } from '../../server/test/support/smtp';
import { signUp, signUpInOpenModal } from './support/auth';
import { launchBrowser, newSession, type Session } from './support/browser';
import { buyTokens, createNtripAccount, ntripRover, until } from './support/ntrip';

/** Two sign-ups and an organisation per journey take a minute when the machine is shared; the default is 90 s. */
const JOURNEY_TIMEOUT_MS = 180_000;
/** Amsterdam's demo station of the Dutch RTK network (server/src/modules/catalogue/catalogue.seed.ts). */
const STATION = 'AMST00NLD0';

describe('organisations in Chromium', () => {
  let browser: Browser;
  /** The mail server the portal's SMTP_URL names (tests/e2e/global-setup.ts): the test reads the mail it sends. */
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer(inject('smtpPort'));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await smtp?.close();
  });

  /** Creates an organisation from the side menu's Organisations link and opens it; answers its name and page. */
  async function createOrganization(owner: Session) {
    await owner.page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Organisations', exact: true })
      .click();
    await owner.page.waitForURL((u) => u.pathname === '/settings/organization');
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
    return { name, url: owner.page.url() };
  }

  /** Signs up an owner who creates an organisation and lands on its page; answers the session and the name. */
  async function ownerWithOrganization() {
    const owner = await newSession(browser);
    await signUp(owner);
    const { name } = await createOrganization(owner);
    return { owner, name };
  }

  /** Creates an NTRIP account on /accounts; answers the credentials its card shows once. */

  async function invite(owner: Session, email: string) {
    await owner.page.getByLabel('Invite by e-mail:').fill(email);
    await owner.page.getByRole('button', { name: 'Send invitation' }).click();
    await owner.page.getByText(`Invitation for ${email.toLowerCase()} created.`).waitFor();
  }

  it(
    'A runs an organisation from the menu: B joins by the mailed link, becomes admin, pays an activation with its tokens, and is refused at the caster once removed',
    async () => {
      const owner = await newSession(browser);
      await signUp(owner);
      await buyTokens(owner);
      const { name, url } = await createOrganization(owner);
      await owner.page.getByLabel('Tokens to move to the organisation:').fill('30');
      await owner.page.getByRole('button', { name: 'Move tokens' }).click();
      await owner.page.getByText('The organisation has 30 tokens.', { exact: false }).waitFor();
      await owner.page.getByTestId('organization-switcher').selectOption({ label: name });
      await owner.goto('/accounts');
      await createNtripAccount(owner.page, 'Office base');

      // The invitation: the link shown to copy is the one the real SMTP server received.
      const colleagueEmail = `colleague-${randomUUID().slice(0, 8)}@example.test`;
      await owner.goto(url);
      await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: inject('baseURL') });
      await invite(owner, colleagueEmail);
      await owner.page.getByText(`The portal also e-mails this link to ${colleagueEmail}.`, { exact: false }).waitFor();
      await owner.page.getByRole('button', { name: 'Copy invite link' }).click();
      await owner.page.getByRole('button', { name: 'Copied' }).waitFor();
      const copied = await owner.page.evaluate(() => navigator.clipboard.readText());
      const [mail] = await smtp.to(colleagueEmail, 1, 20_000);
      expect(mail?.subject).toMatch(new RegExp(`^Invitation to ${name} on `));
      const link = /View invitation: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
      expect(link).toBe(copied);
      const linkUrl = new URL(link);
      expect(linkUrl.origin + linkUrl.pathname).toBe(`${inject('baseURL')}/invites/accept`);
      expect(linkUrl.searchParams.get('token')).toMatch(/^[\w-]{43}$/);

      // The colleague has no account yet: they follow the link from the mail and sign up on the way.
      const colleague = await newSession(browser);
      await colleague.page.goto(link);
      await colleague.page.getByRole('heading', { name: 'Organisation invitation' }).waitFor();
      // The secret left the address bar (page views and Tag Manager read it) but not the tab.
      expect(new URL(colleague.page.url()).search).toBe('');
      await colleague.page.getByRole('main').getByRole('button', { name: 'Sign up' }).click();
      await signUpInOpenModal(colleague, { email: colleagueEmail });
      await colleague.page.getByText(`makes your account ${colleagueEmail} a member`, { exact: false }).waitFor();
      await colleague.page.getByRole('button', { name: 'Accept invitation' }).click();
      await colleague.page.waitForURL(/\/settings\/organization\?org=/);
      await colleague.page.getByRole('heading', { name: `Members of ${name}` }).waitFor();
      await colleague.page.getByRole('link', { name: `${name} · Member` }).waitFor();

      // A plain member sees the organisation's NTRIP accounts, and neither makes nor activates them.
      await colleague.page.getByTestId('organization-switcher').selectOption({ label: name });
      await colleague.goto('/accounts');
      await colleague.page.getByText(`The NTRIP accounts of ${name}. Owners and admins`, { exact: false }).waitFor();
      await colleague.page.getByText('Office base').first().waitFor();
      expect(await colleague.page.getByRole('button', { name: 'Create account' }).count()).toBe(0);

      await owner.page.reload();
      await owner.page.getByText(colleagueEmail).first().waitFor();
      await owner.page.getByText('Accepted', { exact: true }).first().waitFor();
      await owner.screenshot('organization-1440');
      const promoted = owner.page.waitForResponse((r) => r.request().method() === 'PUT' && /\/members$/.test(r.url()));
      await owner.page.getByLabel('Role:').selectOption('admin');
      expect((await promoted).status()).toBe(200);

      // Now an admin: an account of the organisation's for their rover, a day of Dutch RTK from its 30 tokens.
      await colleague.page.reload();
      await colleague.page.getByText(`The NTRIP accounts of ${name}. Activations are paid`, { exact: false }).waitFor();
      const rover = await createNtripAccount(colleague.page, 'Field rover');
      await colleague.page.getByRole('button', { name: 'Activate tokens' }).click();
      const activate = colleague.page.getByRole('dialog', { name: 'Activate tokens' });
      await activate.getByLabel('NTRIP account:').selectOption({ label: `Field rover (${rover.username})` });
      const network = activate.getByLabel('Network:');
      await network.selectOption(
        (await network.locator('option', { hasText: 'Dutch RTK' }).getAttribute('value')) ?? '',
      );
      await activate.getByLabel('Days:').fill('1');
      await activate.getByText(`Balance of ${name}`).waitFor();
      await until(
        async () => (await activate.getByTestId('activation-balance-after').textContent()) === '20 tokens',
        () => 'the organisation balance after the activation (20 tokens)',
      );
      await activate.getByRole('button', { name: /^Activate for/ }).click();
      await colleague.page.getByRole('dialog', { name: 'Activated' }).waitFor();
      await colleague.page.getByRole('button', { name: 'Done' }).click();

      const served = ntripRover(inject('casterPort'), STATION, rover.username, rover.password);
      expect(await served.answer).toBe('ICY 200 OK');

      // A removes B: the rover online is cut off, and a new login is refused in plain words.
      const removed = owner.page.waitForResponse(
        (r) => r.request().method() === 'DELETE' && /\/members$/.test(r.url()),
      );
      await owner.page.getByRole('button', { name: 'Remove', exact: true }).click();
      await owner.page.getByRole('dialog').getByRole('button', { name: 'Remove member' }).click();
      expect((await removed).status()).toBeLessThan(300);
      await served.closed;
      const refused = await ntripRover(inject('casterPort'), STATION, rover.username, rover.password).answer;
      expect(refused).toMatch(/^HTTP\/1\.0 403 Forbidden\r\n/);
      expect(refused).toContain(
        '\r\n\r\nForbidden: you are no longer a member of the organisation that owns this NTRIP account\r\n',
      );
      const mails = await smtp.to(colleagueEmail, 3);
      expect(mails.map((m) => m.subject).sort()).toEqual(
        [mail?.subject, `Your role in ${name} changed`, `You are no longer a member of ${name}`].sort(),
      );

      // Used once: the link opened again says so at once, with the server's explanation, and offers no acceptance.
      await colleague.page.goto(link);
      await colleague.page.getByText('This invite link is not valid or has already been used.').waitFor();
      expect(await colleague.page.getByRole('button', { name: 'Accept invitation' }).count()).toBe(0);
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
