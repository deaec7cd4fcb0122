import { PORTAL_SETTINGS_DEFAULTS } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountManagementPage } from '../../../src/features/admin-settings/AccountManagementPage';
import { DocumentsPage } from '../../../src/features/admin-settings/DocumentsPage';
import { LegalDocumentPage } from '../../../src/features/legal/LegalDocumentPage';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const patches: unknown[] = [];
const published: unknown[] = [];
let values = { ...PORTAL_SETTINGS_DEFAULTS };

const terms = {
  id: 'd1',
  kind: 'terms',
  version: 2,
  title: 'Terms and conditions',
  body: '# Terms\n\nBe kind to the caster.',
  language: 'en',
  publishedAt: '2026-11-20T09:00:00Z',
  publishedBy: 'operator@example.test',
  acceptances: 12,
};

beforeEach(() =>
  server.use(
    // The page's title and description: none stored, so the defaults.
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'No meta.' }, { status: 404 }),
    ),
    http.get('*/api/admin/settings', () =>
      HttpResponse.json({
        values,
        changes: [{ key: 'ntripAccountsPerUser', updatedAt: '2026-11-25T08:00:00Z', updatedBy: 'ops@example.test' }],
      }),
    ),
    http.patch('*/api/admin/settings', async ({ request }) => {
      const patch = (await request.json()) as object;
      patches.push(patch);
      values = { ...values, ...patch };
      return HttpResponse.json({ values, changes: [] });
    }),
    http.get('*/api/admin/documents/:kind', ({ params }) =>
      HttpResponse.json({ items: params.kind === 'terms' ? [terms, { ...terms, id: 'd0', version: 1 }] : [] }),
    ),
    http.post('*/api/admin/documents/:kind', async ({ request, params }) => {
      const body = (await request.json()) as { title: string; body: string };
      published.push({ kind: params.kind, ...body });
      return HttpResponse.json(
        { id: 'd3', kind: params.kind, version: 3, ...body, publishedAt: '2026-11-27T00:00:00Z' },
        { status: 201 },
      );
    }),
  ),
);
afterEach(() => {
  patches.length = 0;
  published.length = 0;
  values = { ...PORTAL_SETTINGS_DEFAULTS };
});

describe('/admin/settings/account-management', () => {
  it('shows the values in force with who changed them, and saves only what the admin changed', async () => {
    renderWithProviders(<AccountManagementPage />);
    const accounts = await screen.findByLabelText('Accounts:');
    expect(accounts).toHaveValue(String(PORTAL_SETTINGS_DEFAULTS.ntripAccountsPerUser));
    expect(screen.getByText(/by ops@example\.test/)).toBeInTheDocument();
    expect(screen.getByLabelText('Who may sign up:')).toHaveValue('open');

    const u = userEvent.setup();
    await u.selectOptions(screen.getByLabelText('Who may sign up:'), 'By invitation only');
    await u.clear(accounts);
    await u.type(accounts, '5');
    await u.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(patches).toEqual([{ signUp: 'invite-only', ntripAccountsPerUser: 5 }]));
    expect(await screen.findByText('Saved. The new values apply from now on.')).toBeInTheDocument();
  });

  it('refuses a value out of bounds before sending anything', async () => {
    renderWithProviders(<AccountManagementPage />);
    const u = userEvent.setup();
    await u.clear(await screen.findByLabelText('Hours:'));
    await u.type(screen.getByLabelText('Hours:'), '9999');
    await u.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Enter a whole number of hours from 0 to 720.')).toBeInTheDocument();
    expect(patches).toEqual([]);
  });

  it("shows the server's refusal of a field under it with the field's text, until the admin changes it", async () => {
    server.use(
      http.patch('*/api/admin/settings', () =>
        HttpResponse.json(
          { code: 'validation_failed', message: 'Too many hours.', field: 'accessGraceHours' },
          { status: 400 },
        ),
      ),
    );
    renderWithProviders(<AccountManagementPage />);
    const u = userEvent.setup();
    const hours = await screen.findByLabelText('Hours:');
    await u.clear(hours);
    await u.type(hours, '700');
    await u.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Enter a whole number of hours from 0 to 720.')).toBeInTheDocument();
    expect(screen.queryByText('Too many hours.')).not.toBeInTheDocument();
    await u.type(hours, '{Backspace}');
    expect(screen.queryByText('Enter a whole number of hours from 0 to 720.')).not.toBeInTheDocument();
  });
});

describe('/admin/settings/documents', () => {
  it('shows the current terms version with its acceptances, and publishes a new one after the confirmation', async () => {
    renderWithProviders(<DocumentsPage />);
    expect(await screen.findByTestId('current-version')).toHaveTextContent(
      /Version 2, published .* by operator@example\.test · accepted by 12 users/,
    );
    // The form starts from the current text, rendered in the preview.
    expect(screen.getByRole('heading', { name: 'Terms' })).toBeInTheDocument();

    const u = userEvent.setup();
    const body = screen.getByLabelText('Text (Markdown):');
    await u.clear(body);
    await u.type(body, 'Versie drie');
    await u.selectOptions(screen.getByLabelText('Language of the text:'), 'nl');
    await u.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Every user will have to accept this version');
    expect(published).toEqual([]);
    await u.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() =>
      expect(published).toEqual([
        { kind: 'terms', title: 'Terms and conditions', body: 'Versie drie', language: 'nl' },
      ]),
    );
    expect(await screen.findByText('Version 3 is published.')).toBeInTheDocument();
  });

  it('says when a document has never been published', async () => {
    renderWithProviders(<DocumentsPage />);
    await screen.findByTestId('current-version');
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Privacy policy' }));
    expect(await screen.findByText('No version has been published yet.')).toBeInTheDocument();
  });
});

describe('/legal/:kind', () => {
  it('says which language a document is published in when it is not the page’s, and marks its text so (issue 32)', async () => {
    server.use(
      http.get('*/api/documents/terms', () =>
        HttpResponse.json({ ...terms, body: '# Voorwaarden\n\nWees aardig voor de caster.', language: 'nl' }),
      ),
    );
    renderWithProviders(<LegalDocumentPage />, {
      route: '/legal/terms',
      wrapper: (children) => (
        <Routes>
          <Route path="/legal/:kind" element={children} />
        </Routes>
      ),
    });
    expect(await screen.findByTestId('document-language')).toHaveTextContent(
      'This document is published in Dutch only.',
    );
    expect(screen.getByRole('heading', { name: 'Voorwaarden' }).closest('article')).toHaveAttribute('lang', 'nl');
  });
});
