import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AxiosError, AxiosHeaders } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { SandboxCardForm, typedExpiry } from '../../../src/features/billing/SandboxCardForm';
import { renderWithProviders } from '../support/render';

/** What the API client rejects with when the server refuses. */
function refusal(status: number, data: object): AxiosError {
  const headers = new AxiosHeaders();
  return new AxiosError('refused', 'ERR_BAD_REQUEST', undefined, undefined, {
    status,
    statusText: '',
    headers,
    config: { headers },
    data,
  });
}

function setup(onSubmit = vi.fn(async () => undefined)) {
  renderWithProviders(<SandboxCardForm submitLabel="Pay €10.00" onSubmit={onSubmit} />);
  const form = screen.getByTestId('sandbox-card-form');
  const field = (label: RegExp) => within(form).getByLabelText(label) as HTMLInputElement;
  return { form, onSubmit, card: field(/Card number/), expiry: field(/Expiry date/), cvc: field(/CVC/) };
}

/** The text shown under a field: its description, as the form field ties it. */
const errorUnder = (input: HTMLInputElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

describe('the sandbox card form (issue 32)', () => {
  it('puts the slash into the expiry date as it is typed, and lets a backspace take it out', () => {
    expect(typedExpiry('1', '')).toBe('1');
    expect(typedExpiry('12', '1')).toBe('12/');
    expect(typedExpiry('12//', '12/')).toBe('12/');
    expect(typedExpiry('12/3', '12/')).toBe('12/3');
    expect(typedExpiry('4', '')).toBe('04/');
    expect(typedExpiry('1234', '')).toBe('12/34');
    expect(typedExpiry('12', '12/')).toBe('12');
    expect(typedExpiry('12/345', '12/34')).toBe('12/34');
  });

  it('refuses an expired card before sending it, under the expiry date, not under the number', async () => {
    const { card, expiry, cvc, form, onSubmit } = setup();
    await userEvent.type(card, '4242 4242 4242 4242');
    await userEvent.type(expiry, '0120');
    expect(expiry.value).toBe('01/20');
    await userEvent.type(cvc, '123');
    await userEvent.click(within(form).getByRole('button', { name: 'Pay €10.00' }));
    await waitFor(() =>
      expect(errorUnder(expiry)).toContain('This card has expired. Use a card with an expiry date in the future.'),
    );
    expect(errorUnder(card)).not.toContain('expired');
    expect(expiry).toHaveAttribute('aria-invalid', 'true');
    expect(card).not.toHaveAttribute('aria-invalid');
    expect(onSubmit).not.toHaveBeenCalled();

    await userEvent.clear(expiry);
    await userEvent.type(expiry, '12/34');
    await userEvent.click(within(form).getByRole('button', { name: 'Pay €10.00' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({ card: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }),
    );
  });

  it("shows the server's refusal of an expired card under the expiry date", async () => {
    const onSubmit = vi.fn(async () => {
      throw refusal(400, { code: 'card_expired', message: 'This card has expired.', field: 'expiry' });
    });
    const { card, expiry, cvc, form } = setup(onSubmit);
    await userEvent.type(card, '4242 4242 4242 4242');
    await userEvent.type(expiry, '12/34');
    await userEvent.type(cvc, '123');
    await userEvent.click(within(form).getByRole('button', { name: 'Pay €10.00' }));
    await waitFor(() => expect(errorUnder(expiry)).toContain('This card has expired.'));
    expect(errorUnder(card)).toBe('');
  });
});
