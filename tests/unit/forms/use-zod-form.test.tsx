import { createNetworkBodySchema } from '@portal/contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, HttpResponse, http } from 'msw';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { TextField } from '../../../src/components/form';
import { createNetwork } from '../../../src/features/catalogue/catalogue.api';
import { useZodForm } from '../../../src/lib/forms/useZodForm';
import { network } from '../support/factories';
import { i18nIn } from '../support/i18n';
import { server } from '../support/server';

/** A small network form on the hook, sending through the real api client (answered by msw). */
function NetworkForm({ onSaved }: { onSaved?: (name: string) => void }) {
  const form = useZodForm({
    initialValues: { name: '', slug: '', tokenPricePerDay: '0' },
    schema: createNetworkBodySchema,
    toBody: (v) => ({ name: v.name, slug: v.slug || undefined, tokenPricePerDay: Number(v.tokenPricePerDay) }),
    submit: createNetwork,
    onSuccess: (saved) => onSaved?.(saved.name),
  });
  return (
    <form onSubmit={form.handleSubmit} noValidate>
      {form.general && <p role="alert">{form.general}</p>}
      <TextField
        label="Name"
        value={form.values.name}
        onChange={(e) => form.set('name')(e.target.value)}
        error={form.errors.name}
      />
      <TextField
        label="Slug"
        value={form.values.slug}
        onChange={(e) => form.set('slug')(e.target.value)}
        error={form.errors.slug}
      />
      <TextField
        label="Price"
        value={form.values.tokenPricePerDay}
        onChange={(e) => form.set('tokenPricePerDay')(e.target.value)}
        error={form.errors.tokenPricePerDay}
      />
      <button type="submit" disabled={form.pending}>
        {form.pending ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}

async function renderIn(lng: 'en' | 'nl', ui = <NetworkForm />) {
  render(<I18nextProvider i18n={i18nIn(lng)}>{ui}</I18nextProvider>);
  return userEvent.setup();
}

describe('useZodForm', () => {
  it("shows the contract schema's problems in English after a submit, and nothing is sent", async () => {
    let sent = 0;
    server.use(http.post('*/api/admin/networks', () => void sent++));
    const u = await renderIn('en');
    expect(screen.queryByText('Use at least 2 characters.')).not.toBeInTheDocument();
    await u.type(screen.getByLabelText('Name:'), 'A');
    await u.clear(screen.getByLabelText('Price:'));
    await u.type(screen.getByLabelText('Price:'), '-3');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Use at least 2 characters.')).toBeInTheDocument();
    expect(screen.getByText('Enter 0 or more.')).toBeInTheDocument();
    expect(screen.getByLabelText('Name:')).toHaveAttribute('aria-invalid', 'true');
    // After a submit the problems follow the typing.
    await u.type(screen.getByLabelText('Name:'), 'B');
    expect(screen.queryByText('Use at least 2 characters.')).not.toBeInTheDocument();
    expect(sent).toBe(0);
  });

  it('shows the same problems in Dutch', async () => {
    const u = await renderIn('nl');
    await u.clear(screen.getByLabelText('Price:'));
    await u.type(screen.getByLabelText('Price:'), '1.5');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Gebruik minstens 2 tekens.')).toBeInTheDocument();
    expect(screen.getByText('Vul een heel getal in.')).toBeInTheDocument();
  });

  it("shows a server's field error next to that field until the field changes", async () => {
    server.use(
      http.post('*/api/admin/networks', () =>
        HttpResponse.json(
          { code: 'slug_taken', field: 'slug', message: 'Another network already uses this slug.' },
          { status: 409 },
        ),
      ),
    );
    const u = await renderIn('en');
    await u.type(screen.getByLabelText('Name:'), 'Dutch RTK');
    await u.type(screen.getByLabelText('Slug:'), 'dutch-rtk');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Another network already uses this slug.')).toBeInTheDocument();
    expect(screen.getByLabelText('Slug:')).toHaveAttribute('aria-invalid', 'true');
    await u.type(screen.getByLabelText('Slug:'), '-2');
    expect(screen.queryByText('Another network already uses this slug.')).not.toBeInTheDocument();
  });

  it('shows a refusal of a field the form has no input for above the form', async () => {
    server.use(
      http.post('*/api/admin/networks', () =>
        HttpResponse.json(
          { code: 'validation_failed', field: 'translations', message: 'Only Dutch translations are kept.' },
          { status: 400 },
        ),
      ),
    );
    const u = await renderIn('en');
    await u.type(screen.getByLabelText('Name:'), 'Dutch RTK');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only Dutch translations are kept.');
  });

  it('shows a failure without a field above the form, translated when it is no API answer', async () => {
    server.use(http.post('*/api/admin/networks', () => HttpResponse.error()));
    const u = await renderIn('nl');
    await u.type(screen.getByLabelText('Name:'), 'Dutch RTK');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Opslaan is mislukt. Probeer het opnieuw.');
  });

  it('is pending while the body is sent, then calls onSuccess with the answer', async () => {
    const saved: string[] = [];
    let release = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post('*/api/admin/networks', async ({ request }) => {
        const body = (await request.json()) as { name: string };
        await answered;
        await delay(0);
        return HttpResponse.json(network({ name: body.name }), { status: 201 });
      }),
    );
    const u = await renderIn('en', <NetworkForm onSaved={(name) => saved.push(name)} />);
    await u.type(screen.getByLabelText('Name:'), '  Dutch RTK ');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Saving…' })).toBeDisabled();
    release();
    expect(await screen.findByRole('button', { name: 'Save' })).toBeEnabled();
    expect(saved).toEqual(['  Dutch RTK ']);
  });
});
