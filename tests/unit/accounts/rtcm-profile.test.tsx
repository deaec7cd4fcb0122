import type { UpdateNtripAccountBody } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConnectionCard } from '../../../src/features/accounts/ConnectionCard';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { account, mountpoints, network, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

describe('the connection card’s RTCM profile (issue 36)', () => {
  it('offers each profile with who needs it, and saves the choice with the constellations', async () => {
    const sent: UpdateNtripAccountBody[] = [];
    server.use(
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: mountpoints })),
      http.get('*/api/ntrip-accounts/:id/sessions', () =>
        HttpResponse.json({ items: [], total: 0, limit: 20, offset: 0 }),
      ),
      http.get('*/api/networks', () => HttpResponse.json({ items: [network()] })),
      http.patch('*/api/ntrip-accounts/:id', async ({ request }) => {
        const body = (await request.json()) as UpdateNtripAccountBody;
        sent.push(body);
        return HttpResponse.json(account({ rtcmProfile: body.rtcmProfile, constellations: body.constellations }));
      }),
    );
    renderWithProviders(<ConnectionCard account={account()} />, {
      wrapper: (children) => <AuthContext.Provider value={user}>{children}</AuthContext.Provider>,
    });
    const u = userEvent.setup();
    const section = await screen.findByTestId('rtcm-profile');
    expect(within(section).getByRole('radio', { name: /As sent/ })).toBeChecked();
    expect(section).toHaveTextContent('For tractor guidance displays (John Deere, Trimble, Topcon)');
    expect(section).toHaveTextContent('add _MSM4 or _LEGACY to it');
    expect(within(section).getByRole('button', { name: 'Save' })).toBeDisabled();

    await u.click(within(section).getByRole('radio', { name: /Legacy \(1004\/1012\)/ }));
    await u.click(within(section).getByRole('checkbox', { name: 'All the station sends' }));
    await u.click(within(section).getByRole('checkbox', { name: 'GLONASS' }));
    await u.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByRole('status')).toHaveTextContent('Your rover gets it from its next connection');
    expect(sent).toEqual([{ rtcmProfile: 'legacy', constellations: ['GPS', 'GLO'] }]);
  });
});
