import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BillingDetailsForm } from '../../../src/features/billing/BillingDetailsForm';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const stored = {
  companyName: null,
  addressLine1: 'Mekelweg 4',
  addressLine2: null,
  postalCode: '2628 CD',
  city: 'Delft',
  country: 'NL',
  vatNumber: null,
  vatVerified: false,
  invoiceEmail: null,
  updatedAt: '2026-11-23T12:00:00.000Z',
};

describe('billing details form', () => {
  it("starts from the stored details, refuses a VAT number of another country with the form's text, then saves", async () => {
    const sent: unknown[] = [];
    server.use(
      http.get('*/api/billing/details', () => HttpResponse.json({ details: stored })),
      http.put('*/api/billing/details', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        sent.push(body);
        return HttpResponse.json({ details: { ...stored, ...body } });
      }),
    );
    renderWithProviders(<BillingDetailsForm />);
    const form = within(await screen.findByTestId('billing-details'));
    expect(await form.findByDisplayValue('Mekelweg 4')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(form.getByLabelText('Company:'), 'Survey B.V.');
    await u.type(form.getByLabelText('VAT number:'), 'DE123456789');
    await u.click(form.getByRole('button', { name: 'Save' }));
    expect(form.getByText('This is not a VAT number of the chosen country.')).toBeInTheDocument();
    expect(sent).toHaveLength(0);

    await u.clear(form.getByLabelText('VAT number:'));
    await u.type(form.getByLabelText('VAT number:'), 'NL123456789B01');
    await u.click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByRole('status')).toHaveTextContent('Billing details saved.');
    expect(sent).toEqual([expect.objectContaining({ companyName: 'Survey B.V.', vatNumber: 'NL123456789B01' })]);
  });

  it("shows the server's refusal of a field under that field", async () => {
    server.use(
      http.get('*/api/billing/details', () => HttpResponse.json({ details: stored })),
      http.put('*/api/billing/details', () =>
        HttpResponse.json(
          { code: 'validation_failed', field: 'postalCode', message: "Invalid body field 'postalCode': bad value" },
          { status: 400 },
        ),
      ),
    );
    renderWithProviders(<BillingDetailsForm />);
    const form = within(await screen.findByTestId('billing-details'));
    await form.findByDisplayValue('Mekelweg 4');
    await userEvent.setup().click(form.getByRole('button', { name: 'Save' }));
    expect(await form.findByText('This is not a postal code of the chosen country.')).toBeInTheDocument();
    expect(form.getByLabelText('Postal code:')).toHaveAttribute('aria-invalid', 'true');
  });
});
