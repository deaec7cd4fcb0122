import type { NotificationPreferences, OutboxMail } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminOutboxPage } from '../../../src/features/mail/AdminOutboxPage';
import { NotificationsSection } from '../../../src/features/mail/NotificationsSection';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

vi.mock('../../../src/lib/page-meta', () => ({ usePageMeta: () => {} }));

let stored: NotificationPreferences = {
  locale: 'en',
  accessEnding: true,
  lowBalance: true,
  lowBalanceThreshold: 10,
  renewalFailed: true,
  rinexReady: true,
  membership: true,
  stationAlerts: true,
};
const puts: unknown[] = [];
const mail = (n: number, over: Partial<OutboxMail> = {}): OutboxMail => ({
  id: `m${n}`,
  kind: 'invitation',
  recipient: `invitee${n}@fleet.example`,
  locale: 'en',
  subject: `Invitation to Crew ${n} on Meridian RTK`,
  text: `Open the link ${n}`,
  status: 'sent',
  transport: 'log',
  attempts: 1,
  lastError: null,
  createdAt: new Date(Date.UTC(2026, 10, 26, 12, 0, 60 - n)).toISOString(),
  sentAt: new Date(Date.UTC(2026, 10, 26, 12, 1, 0)).toISOString(),
  ...over,
});
const outboxPages: Array<{ page: number }> = [];
let smtp = false;

beforeEach(() =>
  server.use(
    http.get('*/api/user/notifications', () => HttpResponse.json(stored)),
    http.put('*/api/user/notifications', async ({ request }) => {
      const body = (await request.json()) as Partial<NotificationPreferences>;
      puts.push(body);
      stored = { ...stored, ...body };
      return HttpResponse.json(stored);
    }),
    http.get('*/api/admin/outbox', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const offset = Number(params.get('offset'));
      const page = offset / 50 + 1;
      outboxPages.push({ page });
      const mails =
        page === 1
          ? [
              mail(1),
              mail(2, {
                status: 'queued',
                transport: null,
                attempts: 2,
                lastError: '451 Try again later',
                sentAt: null,
              }),
              mail(3, { kind: 'membership', status: 'failed', transport: null, attempts: 10, lastError: 'refused' }),
              mail(4, { locale: 'nl', subject: 'Betalingsbewijs', text: 'Bedankt voor uw betaling' }),
            ]
          : [mail(51)];
      return HttpResponse.json({ items: mails, total: 51, limit: Number(params.get('limit')), offset, smtp });
    }),
  ),
);
afterEach(() => {
  puts.length = 0;
  outboxPages.length = 0;
});

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

describe('e-mail notifications in /settings', () => {
  it('shows the saved choices and saves what the user changes', async () => {
    stored = { ...stored, rinexReady: false, lowBalanceThreshold: 40 };
    renderWithProviders(<NotificationsSection Section={Section} />);
    const section = await screen.findByRole('region', { name: 'E-mail notifications' });
    const rinex = await within(section).findByRole('switch', { name: 'A RINEX download is ready' });
    expect(
      within(section).getByText(/Invitations to an organisation and payment receipts are always sent/),
    ).toBeInTheDocument();
    expect(rinex).toHaveAttribute('aria-checked', 'false');
    const membership = within(section).getByRole('switch', {
      name: 'My role in an organisation changed, or I am no longer a member',
    });
    expect(membership).toHaveAttribute('aria-checked', 'true');
    const outages = within(section).getByRole('switch', {
      name: 'A station my rovers used in the last 30 days is down or failing, and back',
    });
    expect(outages).toHaveAttribute('aria-checked', 'true');
    const threshold = within(section).getByLabelText('Low-balance threshold (tokens):');
    expect(threshold).toHaveValue(40);

    const user = userEvent.setup();
    await user.click(membership);
    await user.click(outages);
    await user.clear(threshold);
    await user.type(threshold, '250');
    await user.selectOptions(within(section).getByLabelText('Language of the mails:'), 'nl');
    await user.click(within(section).getByRole('button', { name: 'Save notifications' }));

    expect(await within(section).findByText('Your notification settings are saved.')).toBeInTheDocument();
    expect(puts).toEqual([
      {
        locale: 'nl',
        accessEnding: true,
        lowBalance: true,
        lowBalanceThreshold: 250,
        renewalFailed: true,
        rinexReady: false,
        membership: false,
        stationAlerts: false,
      },
    ]);
  });

  it('refuses a threshold that is not a whole number of tokens, sending nothing', async () => {
    renderWithProviders(<NotificationsSection Section={Section} />);
    const threshold = await screen.findByLabelText('Low-balance threshold (tokens):');
    const user = userEvent.setup();
    await user.clear(threshold);
    await user.type(threshold, '2.5');
    await user.click(screen.getByRole('button', { name: 'Save notifications' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a whole number of tokens, 0 or more.');
    expect(puts).toEqual([]);
  });

  it('greys out the threshold while low-balance mails are off', async () => {
    stored = { ...stored, lowBalance: true };
    renderWithProviders(<NotificationsSection Section={Section} />);
    const threshold = await screen.findByLabelText('Low-balance threshold (tokens):');
    expect(threshold).toBeEnabled();
    await userEvent.setup().click(screen.getByRole('switch', { name: 'Token balance below my threshold' }));
    expect(threshold).toBeDisabled();
  });
});

describe('admin outbox', () => {
  it('lists the mails with their state and text, and says when no SMTP server delivers them', async () => {
    smtp = false;
    renderWithProviders(<AdminOutboxPage />);
    expect(await screen.findByText('Invitation to Crew 1 on Meridian RTK')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('No SMTP server is configured (SMTP_URL)');
    expect(screen.getByText('51 mails')).toBeInTheDocument();
    const [first, second, third] = screen.getAllByTestId('outbox-mail') as HTMLElement[];
    expect(within(first as HTMLElement).getByText('invitee1@fleet.example')).toBeInTheDocument();
    expect(within(first as HTMLElement).getByText(/^Kept here and logged .*, not delivered$/)).toBeInTheDocument();
    expect(within(first as HTMLElement).getByText('Open the link 1')).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText('Waiting (2 tries so far)')).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText('451 Try again later')).toBeInTheDocument();
    expect(within(third as HTMLElement).getByText('Membership changed')).toBeInTheDocument();
    expect(within(third as HTMLElement).getByText('Given up after 10 tries')).toBeInTheDocument();
    // A mail is shown in its recipient's language, marked as such for the reader's tools.
    expect(within(first as HTMLElement).getByText('Invitation to Crew 1 on Meridian RTK')).toHaveAttribute(
      'lang',
      'en',
    );
    expect(screen.getByText('Betalingsbewijs')).toHaveAttribute('lang', 'nl');
    expect(screen.getByText('Bedankt voor uw betaling')).toHaveAttribute('lang', 'nl');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('invitee51@fleet.example')).toBeInTheDocument();
    expect(outboxPages.map((p) => p.page)).toEqual([1, 2]);
  });

  it('shows no warning when mail goes out over SMTP', async () => {
    smtp = true;
    renderWithProviders(<AdminOutboxPage />);
    expect(await screen.findByText('Invitation to Crew 1 on Meridian RTK')).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
