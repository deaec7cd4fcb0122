import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { WebhooksSection } from '../../../src/features/api-keys/WebhooksSection';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const HOOK = {
  id: '8f1c2a9e-1b1d-4c56-9a3e-2f4b5c6d7e80',
  url: 'https://fleet.example/hooks',
  events: ['rinex.ready'],
};
const DELIVERY = {
  id: '0b9f5a1e-3c2d-4e6f-8a7b-1c2d3e4f5a6b',
  event: 'webhook.test',
  status: 'succeeded',
  attempts: 1,
  createdAt: '2026-11-28T12:00:00.000Z',
  nextAttemptAt: null,
  lastStatusCode: 200,
  lastResponse: 'ok',
};

const ORG = '5d7e9f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a';

let hooks: (typeof HOOK & { createdAt: string })[];
let deliveries: (typeof DELIVERY)[];
let posted: unknown[];
let postedToOrg: unknown[];
beforeEach(() => {
  hooks = [];
  deliveries = [];
  posted = [];
  postedToOrg = [];
  server.use(
    http.get(`*/api/org/${ORG}/webhooks`, () => HttpResponse.json({ items: [] })),
    http.post(`*/api/org/${ORG}/webhooks`, async ({ request }) => {
      const body = (await request.json()) as { url: string; events: string[] };
      postedToOrg.push(body);
      return HttpResponse.json(
        { ...HOOK, ...body, createdAt: '2026-11-28T12:00:00.000Z', secret: 'whsec_org' },
        { status: 201 },
      );
    }),
    http.get('*/api/webhooks', () => HttpResponse.json({ items: hooks })),
    http.post('*/api/webhooks', async ({ request }) => {
      const body = (await request.json()) as { url: string; events: string[] };
      posted.push(body);
      const hook = { ...HOOK, ...body, createdAt: '2026-11-28T12:00:00.000Z' };
      hooks.push(hook);
      return HttpResponse.json({ ...hook, secret: 'whsec_once' }, { status: 201 });
    }),
    http.post('*/api/webhooks/:id/test', () => {
      deliveries.push(DELIVERY);
      return HttpResponse.json(DELIVERY, { status: 201 });
    }),
    http.get('*/api/webhooks/:id/deliveries', () => HttpResponse.json({ items: deliveries })),
  );
});

describe('WebhooksSection (issue 37)', () => {
  it('refuses an endpoint without events and says so, sending nothing', async () => {
    renderWithProviders(<WebhooksSection />);
    await screen.findByText('No webhooks yet.');
    await userEvent.type(screen.getByTestId('webhook-url'), 'https://fleet.example/hooks');
    await userEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Choose at least one event.');
    expect(posted).toEqual([]);
  });

  it('adds an endpoint, shows its secret once, sends a test and shows the delivery in the log', async () => {
    renderWithProviders(<WebhooksSection />);
    await screen.findByText('No webhooks yet.');
    await userEvent.type(screen.getByTestId('webhook-url'), 'https://fleet.example/hooks');
    await userEvent.click(screen.getByRole('checkbox', { name: 'rinex.ready' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_once');
    expect(posted).toEqual([{ url: 'https://fleet.example/hooks', events: ['rinex.ready'] }]);

    const row = await screen.findByTestId('webhook-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Delivery log' }));
    await within(row).findByText('No deliveries yet.');
    await userEvent.click(within(row).getByRole('button', { name: 'Send test' }));
    const log = within(row).getByTestId('webhook-deliveries');
    await within(log).findByText('delivered');
    expect(log.textContent).toContain('webhook.test');
    expect(log.textContent).toContain('HTTP 200');
    expect(log.textContent).toContain('1 attempt');
  });

  it("on the organisation page, adds the organisation's endpoint, with the events of its NTRIP accounts", async () => {
    renderWithProviders(<WebhooksSection orgId={ORG} />);
    await screen.findByText(/Events of this organisation's NTRIP accounts/);
    await userEvent.type(screen.getByTestId('webhook-url'), 'https://fleet.example/org-hooks');
    await userEvent.click(screen.getByRole('checkbox', { name: 'session.ended' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'station.down' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect((await screen.findByTestId('webhook-secret')).textContent).toBe('whsec_org');
    expect(postedToOrg).toEqual([
      { url: 'https://fleet.example/org-hooks', events: ['session.ended', 'station.down'] },
    ]);
    expect(posted).toEqual([]);
  });
});
