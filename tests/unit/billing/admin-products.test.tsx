import { type Product, productSchema } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { AdminProductsPage } from '../../../src/features/billing/AdminProductsPage';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const tokenPack: Product = productSchema.parse({
  id: 'p1',
  kind: 'token',
  name: '100 Tokens',
  description: '',
  pricingTable: 'Tokens',
  priceId: 'price_sbx_1',
  amount: 1000,
  currency: 'EUR',
  interval: null,
  creditsAmount: 100,
  billable: true,
  bestChoice: false,
  testMode: true,
  previewMode: false,
  attributes: [],
  includesRinex: false,
  networkIds: [],
  translations: {},
  archived: false,
  createdAt: '2026-11-23T12:00:00Z',
  updatedAt: '2026-11-23T12:00:00Z',
});

/** The query strings the page listed products with, and the products it created. */
let listed: string[] = [];
let created: unknown[] = [];
const answerProducts = (products: Product[]) =>
  server.use(
    http.get('*/api/admin/products', ({ request }) => {
      listed.push(new URL(request.url).search);
      return HttpResponse.json({ products });
    }),
  );

const renderPage = (path: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/products/:productsPage?" element={<AdminProductsPage />} />
    </Routes>,
    { route: path },
  );

beforeEach(() => {
  listed = [];
  created = [];
  server.use(
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 }),
    ),
    http.get('*/api/admin/networks', () => HttpResponse.json({ items: [] })),
    http.post('*/api/admin/products', async ({ request }) => {
      created.push(await request.json());
      return HttpResponse.json({ ...tokenPack, id: 'p2' }, { status: 201 });
    }),
  );
});

describe('admin products', () => {
  it('lists the credits page products and creates a token pack in minor units', async () => {
    answerProducts([tokenPack]);
    renderPage('/admin/products/credits');
    expect(await screen.findByText('100 Tokens')).toBeInTheDocument();
    expect(listed).toEqual(['?kind=token']);
    expect(screen.getByText('€10.00')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('create-product'));
    const form = await screen.findByTestId('product-form');
    await userEvent.type(within(form).getByLabelText('Name:'), '250 Tokens');
    await userEvent.type(within(form).getByLabelText('Price:'), '22.5');
    await userEvent.type(within(form).getByLabelText('Tokens:'), '250');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await expect
      .poll(() => created)
      .toEqual([
        expect.objectContaining({
          kind: 'token',
          name: '250 Tokens',
          amount: 2250,
          currency: 'EUR',
          creditsAmount: 250,
        }),
      ]);
  });

  it('does not send a product whose price is not an amount, and says how to write one under the price', async () => {
    answerProducts([]);
    renderPage('/admin/products/credits');
    await userEvent.click(await screen.findByTestId('create-product'));
    const form = await screen.findByTestId('product-form');
    await userEvent.type(within(form).getByLabelText('Name:'), '250 Tokens');
    await userEvent.type(within(form).getByLabelText('Price:'), '22,555');
    await userEvent.type(within(form).getByLabelText('Tokens:'), '250');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter a price such as 49 or 49.00.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Price:')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(within(form).getByLabelText('Price:'));
    await userEvent.type(within(form).getByLabelText('Price:'), '22,55');
    expect(within(form).queryByText('Enter a price such as 49 or 49.00.')).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await expect.poll(() => created).toEqual([expect.objectContaining({ amount: 2255, creditsAmount: 250 })]);
  });

  it('edits the Dutch name, description and attributes beside the English ones, and sends them as the Dutch translation', async () => {
    const updated: unknown[] = [];
    server.use(
      http.put(`*/api/admin/products/${tokenPack.id}`, async ({ request }) => {
        updated.push(await request.json());
        return HttpResponse.json(tokenPack);
      }),
    );
    answerProducts([
      { ...tokenPack, translations: { nl: { name: '100 tokens', description: '', attributes: ['Verlopen nooit'] } } },
    ]);
    renderPage('/admin/products/credits');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit 100 Tokens' }));
    const form = await screen.findByTestId('product-form');
    expect(within(form).getByLabelText('Name in Dutch:')).toHaveValue('100 tokens');
    expect(within(form).getByLabelText('Attributes in Dutch (one per line)')).toHaveValue('Verlopen nooit');
    await userEvent.type(within(form).getByLabelText('Description in Dutch:'), 'Betaal naar gebruik');
    await userEvent.type(within(form).getByLabelText('Attributes in Dutch (one per line)'), '{enter} Op elk netwerk ');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await expect.poll(() => updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({
      name: '100 Tokens',
      translations: {
        nl: {
          name: '100 tokens',
          description: 'Betaal naar gebruik',
          attributes: ['Verlopen nooit', 'Op elk netwerk'],
        },
      },
    });
  });

  it('creates a plan that includes RINEX only when the admin ticks it, whatever its attributes say', async () => {
    answerProducts([]);
    renderPage('/admin/products/billable-subscriptions');
    await userEvent.click(await screen.findByTestId('create-product'));
    const form = await screen.findByTestId('product-form');
    await userEvent.type(within(form).getByLabelText('Name:'), 'Survey');
    await userEvent.type(within(form).getByLabelText('Price:'), '49');
    await userEvent.type(within(form).getByLabelText('Attributes (one per line)'), 'RINEX data');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await expect.poll(() => created).toHaveLength(1);
    expect(created[0]).toMatchObject({ kind: 'subscription', attributes: ['RINEX data'], includesRinex: false });

    created = [];
    await userEvent.click(await screen.findByTestId('create-product'));
    const again = await screen.findByTestId('product-form');
    await userEvent.type(within(again).getByLabelText('Name:'), 'Survey');
    await userEvent.type(within(again).getByLabelText('Price:'), '49');
    await userEvent.click(within(again).getByLabelText(/^Includes RINEX/));
    await userEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await expect.poll(() => created).toEqual([expect.objectContaining({ includesRinex: true })]);
  });

  it('asks the server for manual subscriptions on the non-billable page', async () => {
    answerProducts([]);
    renderPage('/admin/products/non-billable-subscriptions');
    expect(await screen.findByText('No products yet.')).toBeInTheDocument();
    expect(listed).toEqual(['?kind=subscription&billable=false']);
  });
});
