import type { DemoRequestRecord } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminDemoRequestsPage, DEMO_REQUESTS_PAGE_SIZE } from '../../../src/features/demo/AdminDemoRequestsPage';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const record = (n: number): DemoRequestRecord => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  firstName: `First${n}`,
  lastName: 'Last',
  email: `r${n}@fleet.example`,
  loggedInEmail: n === 1 ? 'ann@fleet.example' : '',
  company: '',
  phoneNumber: '+31 6 12345678',
  submittedFrom: 'https://portal.example/white-label?gclid=abc',
  message: 'Hello',
  gclid: 'abc',
  createdAt: new Date(Date.UTC(2026, 10, 23, 12, 0, 60 - n)).toISOString(),
});
const all = Array.from({ length: DEMO_REQUESTS_PAGE_SIZE + 3 }, (_, i) => record(i + 1));
const queries: URLSearchParams[] = [];

beforeEach(() =>
  server.use(
    // The page asks for its server-side meta; none is set.
    http.get('*/api/meta/pages/:page', () => HttpResponse.json({ code: 'not_found', message: 'x' }, { status: 404 })),
    http.get('*/api/admin/demo-requests', ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(params);
      const limit = Number(params.get('limit'));
      const offset = Number(params.get('offset'));
      return HttpResponse.json({ items: all.slice(offset, offset + limit), total: all.length, limit, offset });
    }),
  ),
);
afterEach(() => {
  queries.length = 0;
});

describe('admin demo requests view', () => {
  it('lists the requests a page at a time, newest first as the API answers', async () => {
    renderWithProviders(<AdminDemoRequestsPage />);
    expect(await screen.findByText('r1@fleet.example')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Demo requests' })).toBeInTheDocument();
    expect(screen.getByText('28 requests')).toBeInTheDocument();
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(DEMO_REQUESTS_PAGE_SIZE + 1);
    const first = within(rows[1] as HTMLElement);
    expect(first.getByText('First1 Last')).toBeInTheDocument();
    expect(first.getByText('ann@fleet.example')).toBeInTheDocument();
    expect(first.getByText('/white-label?gclid=abc')).toBeInTheDocument();
    expect(screen.getByText(`1–${DEMO_REQUESTS_PAGE_SIZE} of 28`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('r28@fleet.example')).toBeInTheDocument();
    expect(screen.getByText(`${DEMO_REQUESTS_PAGE_SIZE + 1}–28 of 28`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(queries.map((q) => q.get('offset'))).toEqual(['0', String(DEMO_REQUESTS_PAGE_SIZE)]);
  });

  it('shows the generic error block when the list cannot be read', async () => {
    server.use(
      http.get('*/api/admin/demo-requests', () =>
        HttpResponse.json({ code: 'forbidden', message: 'x' }, { status: 403 }),
      ),
    );
    renderWithProviders(<AdminDemoRequestsPage />);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
  });
});
