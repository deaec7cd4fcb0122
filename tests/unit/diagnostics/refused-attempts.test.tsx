import type { Refusal } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { RefusedAttempts } from '../../../src/features/diagnostics/RefusedAttempts';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const ACCOUNT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

let next = 0;
function refusal(reason: Refusal['reason'], overrides: Partial<Refusal> = {}): Refusal {
  next++;
  return {
    id: String(next),
    reason,
    minute: '2026-11-24T10:00:00.000Z',
    count: 1,
    firstAt: '2026-11-24T10:00:05.000Z',
    lastAt: '2026-11-24T10:00:05.000Z',
    mountpoint: 'AMS1',
    remoteAddress: '198.51.100.7',
    userAgent: 'NTRIP RTKLIB/2.4.3',
    ntripVersion: 1,
    tls: false,
    detail: {},
    ...overrides,
  };
}

/** The list entry of one reason, once the list has loaded. */
const entry = async (reason: string) =>
  (await screen.findAllByTestId('refusal')).find((el) => el.dataset.reason === reason) as HTMLElement;

describe('refused attempts', () => {
  it('says in plain words what went wrong and how to fix it, for each reason', async () => {
    server.use(
      http.get(`*/api/ntrip-accounts/${ACCOUNT}/refusals`, () =>
        HttpResponse.json({
          items: [
            refusal('wrong_password', { count: 12 }),
            refusal('account_disabled', { detail: { disabled: 'account' } }),
            refusal('no_access', {
              detail: { network: { slug: 'nl-rtk', name: 'Dutch RTK' }, accessEndedAt: '2026-11-20T08:00:00.000Z' },
            }),
            refusal('too_many_connections', {
              detail: {
                limit: 1,
                sessions: [
                  {
                    remoteAddress: '203.0.113.9',
                    mountpoint: 'UTR1',
                    since: '2026-11-24T09:00:00.000Z',
                    userAgent: 'NTRIP EmlidFlow',
                  },
                ],
              },
            }),
            refusal('unknown_mountpoint', { mountpoint: 'AMS' }),
            refusal('mountpoint_offline', { detail: { waitedSeconds: 15 } }),
            refusal('near_no_position', { mountpoint: 'NL-RTK_NEAR', detail: { waitedSeconds: 15 } }),
            refusal('throttled', { detail: { throttle: 'pair' }, tls: true, ntripVersion: 2 }),
          ],
        }),
      ),
    );
    renderWithProviders(<RefusedAttempts accountId={ACCOUNT} />);

    const wrong = await entry('wrong_password');
    expect(wrong).toHaveTextContent('Wrong password');
    expect(wrong).toHaveTextContent('12 times');
    expect(wrong).toHaveTextContent('Fix: Enter the account');
    expect(wrong).toHaveTextContent('Mountpoint AMS1, from 198.51.100.7 · Client: NTRIP RTKLIB/2.4.3 (NTRIP 1)');
    expect(await entry('throttled')).toHaveTextContent('(NTRIP 2 over TLS)');
    expect(await entry('account_disabled')).toHaveTextContent('Switch the account on under Manage.');
    const access = await entry('no_access');
    expect(access).toHaveTextContent('No access to Dutch RTK');
    expect(access).toHaveTextContent(/access to Dutch RTK ended on Nov 20, 2026/);
    const limit = await entry('too_many_connections');
    expect(limit).toHaveTextContent('This account allows 1 rover at a time');
    expect(within(limit).getByRole('listitem')).toHaveTextContent(
      /203\.0\.113\.9 on UTR1 since .* \(NTRIP EmlidFlow\)/,
    );
    expect(await entry('unknown_mountpoint')).toHaveTextContent('Unknown mountpoint AMS');
    expect(await entry('mountpoint_offline')).toHaveTextContent('no corrections came within 15 s');
    const near = await entry('near_no_position');
    expect(near).toHaveTextContent('NL-RTK_NEAR serves the station nearest to the rover');
    expect(near).toHaveTextContent('-n 1000 -p LATITUDE LONGITUDE HEIGHT');
    expect(await entry('throttled')).toHaveTextContent('198.51.100.7 sent several wrong passwords for this account');
  });

  it('says when a network was never activated', async () => {
    server.use(
      http.get(`*/api/ntrip-accounts/${ACCOUNT}/refusals`, () =>
        HttpResponse.json({
          items: [
            refusal('no_access', { detail: { network: { slug: 'de', name: 'German RTK' }, accessEndedAt: null } }),
          ],
        }),
      ),
    );
    renderWithProviders(<RefusedAttempts accountId={ACCOUNT} />);
    expect(await entry('no_access')).toHaveTextContent('German RTK was never activated on this account.');
  });

  it('says a station had no base station when the rover connected', async () => {
    server.use(
      http.get(`*/api/ntrip-accounts/${ACCOUNT}/refusals`, () =>
        HttpResponse.json({ items: [refusal('mountpoint_offline', { detail: { offlineAtLogin: true } })] }),
      ),
    );
    renderWithProviders(<RefusedAttempts accountId={ACCOUNT} />);
    const offline = await entry('mountpoint_offline');
    expect(offline).toHaveTextContent('The station was offline when the rover connected: no base station feeds it');
    expect(offline).not.toHaveTextContent('within 0 s');
  });

  it('shows a new refusal without a reload', async () => {
    let calls = 0;
    server.use(
      http.get(`*/api/ntrip-accounts/${ACCOUNT}/refusals`, () => {
        calls++;
        return HttpResponse.json({ items: calls === 1 ? [] : [refusal('wrong_password')] });
      }),
    );
    renderWithProviders(<RefusedAttempts accountId={ACCOUNT} />);
    expect(await screen.findByText('No refused attempts in the last 24 hours.')).toBeInTheDocument();
    expect(await screen.findByText('Wrong password', {}, { timeout: 6000 })).toBeInTheDocument();
  });
});
