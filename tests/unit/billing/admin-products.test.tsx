import type { Product } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminProductsPage } from '../../../src/features/billing/AdminProductsPage';
import * as billingApi from '../../../src/features/billing/billing.api';
import { api } from '../../../src/lib/api';
import { renderWithProviders } from '../support/render';

const tokenPack: Product = {
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
  networkIds: [],
  archived: false,
  createdAt: '2026-11-23T12:00:00Z',
  updatedAt: '2026-11-23T12:00:00Z',
};

const renderPage = (path: string) =>
  renderWithProviders(
    <Routes>
      <Route path="/admin/products/:productsPage?" element={<AdminProductsPage />} />
    </Routes>,
    { route: path },
  );

beforeEach(() => {
  vi.spyOn(api, 'get').mockResolvedValue({ data: [] });
});
afterEach(() => vi.restoreAllMocks());

describe('admin products', () => {
  it('lists the credits page products and creates a token pack in minor units', async () => {
    const list = vi.spyOn(billingApi, 'fetchAdminProducts').mockResolvedValue([tokenPack]);
    const create = vi.spyOn(billingApi, 'createProduct').mockResolvedValue({ ...tokenPack, id: 'p2' });
    renderPage('/admin/products/credits');
    expect(await screen.findByText('100 Tokens')).toBeInTheDocument();
    expect(list).toHaveBeenCalledWith({ kind: 'token', billable: undefined });
    expect(screen.getByText('€10.00')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('create-product'));
    const form = await screen.findByTestId('product-form');
    await userEvent.type(within(form).getByLabelText('Name:'), '250 Tokens');
    await userEvent.type(within(form).getByLabelText('Price:'), '22.5');
    await userEvent.type(within(form).getByLabelText('Tokens:'), '250');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'token', name: '250 Tokens', amount: 2250, currency: 'EUR', creditsAmount: 250 }),
    );
  });

  it('asks the server for manual subscriptions on the non-billable page', async () => {
    const list = vi.spyOn(billingApi, 'fetchAdminProducts').mockResolvedValue([]);
    renderPage('/admin/products/non-billable-subscriptions');
    expect(await screen.findByText('No products yet.')).toBeInTheDocument();
    expect(list).toHaveBeenCalledWith({ kind: 'subscription', billable: false });
  });
});
