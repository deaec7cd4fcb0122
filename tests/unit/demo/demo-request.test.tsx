import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { DemoRequestFlow } from '../../../src/features/demo/DemoRequestFlow';
import { DEMO_SUBMITTED_COOKIE } from '../../../src/features/demo/demo-cookie';
import { fakeUser } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

// Typing through user-event is slow on a shared CI machine; the default 5 s is too tight under load.
vi.setConfig({ testTimeout: 20_000 });

const posted: Array<{ url: string; body: unknown; authorization: string | null }> = [];
const accept = http.post('*/api/demo-requests', async ({ request }) => {
  posted.push({ url: request.url, body: await request.json(), authorization: request.headers.get('authorization') });
  return HttpResponse.json(
    { id: '6f1c1b1e-1111-4111-8111-111111111111', createdAt: new Date().toISOString() },
    { status: 201 },
  );
});
beforeEach(() => server.use(accept));
afterEach(() => {
  posted.length = 0;
  Cookies.remove(DEMO_SUBMITTED_COOKIE);
  window.localStorage.clear();
  vi.unstubAllEnvs();
});

const user = fakeUser({ username: 'Ann', email: 'ann@fleet.example' });

let done = 0;
function setup({ loggedIn = false } = {}) {
  done = 0;
  renderWithProviders(<DemoRequestFlow onDone={() => done++} />, {
    wrapper: loggedIn ? (c) => <AuthContext.Provider value={user}>{c}</AuthContext.Provider> : undefined,
  });
  return userEvent.setup();
}

type U = ReturnType<typeof userEvent.setup>;
const submit = () => screen.getByRole('button', { name: 'Submit' });
const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

async function toStep2(u: U) {
  await u.click(screen.getByRole('button', { name: 'Request a Demo' }));
}

async function fillRequired(u: U) {
  await u.type(field(/^First name/), 'Ada');
  await u.type(field(/^Last name/), 'Lovelace');
  await u.type(field(/^E-mail/), 'ada@fleet.example');
}

describe('demo request, step 1 of 2', () => {
  beforeEach(() => Cookies.remove(DEMO_SUBMITTED_COOKIE));

  it('shows the benefits, the claim and Request a Demo, which leads to step 2; Back returns', async () => {
    const u = setup();
    expect(screen.getByText('Step 1 of 2')).toBeInTheDocument();
    expect(screen.getByText('Trusted by 200+ fleets')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').length).toBeGreaterThanOrEqual(3);
    await toStep2(u);
    expect(screen.getByText('Step 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Contact Sales' })).toHaveFocus();
    await u.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('Step 1 of 2')).toBeInTheDocument();
  });

  it('shows Thank you! instead of step 1 when the demo-submitted cookie is present', () => {
    Cookies.set(DEMO_SUBMITTED_COOKIE, '1');
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Thank you!' });
    expect(dialog).toBeInTheDocument();
    expect(screen.queryByText('Step 1 of 2')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request a Demo' })).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByText('Close'));
    expect(done).toBe(1);
  });
});

describe('demo request, step 2 of 2: validation (spec §5)', () => {
  it('keeps Submit disabled until first name, last name and a valid e-mail are given; the rest is optional', async () => {
    const u = setup();
    await toStep2(u);
    expect(submit()).toBeDisabled();
    await u.type(field(/^First name/), 'Ada');
    expect(submit()).toBeDisabled();
    await u.type(field(/^Last name/), 'Lovelace');
    expect(submit()).toBeDisabled();
    await u.type(field(/^E-mail/), 'ada@fleet.example');
    expect(submit()).toBeEnabled();
  });

  it.each([
    [/^First name/, 'First name'],
    [/^Last name/, 'Last name'],
    [/^E-mail/, 'E-mail'],
  ])('%s must be non-empty after trimming', async (label) => {
    const u = setup();
    await toStep2(u);
    await fillRequired(u);
    expect(submit()).toBeEnabled();
    const input = field(label);
    await u.clear(input);
    await u.type(input, '   ');
    await u.tab();
    expect(submit()).toBeDisabled();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('This field is required.');
  });

  it.each([
    'ada@fleet',
    'ada.fleet.example',
    'ada @fleet.example',
    'ada@fle et.example',
    '@fleet.example',
    'ada@.example',
  ])('refuses the e-mail %j (text@text.text, no spaces)', async (email) => {
    const u = setup();
    await toStep2(u);
    await fillRequired(u);
    const input = field(/^E-mail/);
    await u.clear(input);
    await u.type(input, email);
    await u.tab();
    expect(submit()).toBeDisabled();
    expect(input).toHaveAccessibleDescription('Enter an e-mail address such as name@example.com.');
  });

  it('accepts an e-mail with surrounding spaces, which are trimmed', async () => {
    const u = setup();
    await toStep2(u);
    await fillRequired(u);
    await u.clear(field(/^E-mail/));
    await u.type(field(/^E-mail/), '  ada@fleet.example ');
    expect(submit()).toBeEnabled();
  });

  it('marks the phone required but lets the form go without it; company is optional', async () => {
    const u = setup();
    await toStep2(u);
    const phone = field(/^Phone number/);
    expect(phone).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('Phone number:').parentElement).toHaveTextContent('*');
    expect(field(/^Company/)).not.toHaveAttribute('aria-required');
    await fillRequired(u);
    expect(phone.value).toBe('');
    expect(submit()).toBeEnabled();
  });

  it('takes only digits in the phone, formatted by the Dutch mask by default', async () => {
    const u = setup();
    await toStep2(u);
    await fillRequired(u);
    expect(screen.getByRole('combobox', { name: /Country/ })).toHaveTextContent('+31');
    const phone = field(/^Phone number/);
    await u.type(phone, '06ab-12x34 56(78)');
    expect(phone.value).toBe('06 12345678');
    expect(submit()).toBeEnabled();
  });

  it('counts the message live and turns the counter red at 200 characters, never allowing more', async () => {
    const u = setup();
    await toStep2(u);
    const message = screen.getByLabelText(/^Message/) as HTMLTextAreaElement;
    const counter = screen.getByTestId('message-counter');
    expect(counter).toHaveTextContent('0/200');
    expect(message).toHaveAttribute('maxLength', '200');
    fireEvent.change(message, { target: { value: 'x'.repeat(198) } });
    await u.type(message, 'y');
    expect(counter).toHaveTextContent('199/200');
    expect(counter).not.toHaveClass('text-status-red');
    await u.type(message, 'z');
    expect(counter).toHaveTextContent('200/200');
    expect(counter).toHaveClass('text-status-red');
    await u.type(message, 'w');
    expect(message.value).toHaveLength(200);
    expect(counter).toHaveTextContent('200/200');
  });
});

describe('demo request: delivery (spec §4, §7, §8)', () => {
  it('posts the JSON body to the API, reads Submitting... while it waits, then shows Thank you! and sets the 24-hour cookie', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    server.use(
      http.post('*/api/demo-requests', async ({ request }) => {
        posted.push({ url: request.url, body: await request.json(), authorization: null });
        await gate;
        return HttpResponse.json(
          { id: '6f1c1b1e-1111-4111-8111-111111111111', createdAt: new Date().toISOString() },
          { status: 201 },
        );
      }),
    );
    window.localStorage.setItem('gclid', 'gclid-from-ad');
    const set = vi.spyOn(Cookies, 'set');
    const u = setup({ loggedIn: true });
    await toStep2(u);
    await fillRequired(u);
    await u.type(field(/^Phone number/), '0612345678');
    await u.type(field(/^Company/), ' Fleet BV ');
    await u.type(screen.getByLabelText(/^Message/), 'Forty tractors.');
    await u.click(submit());

    const busy = await screen.findByRole('button', { name: 'Submitting...' });
    expect(busy).toBeDisabled();
    release();
    expect(await screen.findByRole('dialog', { name: 'Thank you!' })).toBeInTheDocument();
    expect(posted).toHaveLength(1);
    expect(posted[0]?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@fleet.example',
      loggedInEmail: 'ann@fleet.example',
      company: 'Fleet BV',
      phoneNumber: '+31 6 12345678',
      submittedFrom: window.location.href,
      message: 'Forty tractors.',
      gclid: 'gclid-from-ad',
    });
    expect(Cookies.get(DEMO_SUBMITTED_COOKIE)).toBeDefined();
    expect(set).toHaveBeenCalledWith(DEMO_SUBMITTED_COOKIE, '1', expect.objectContaining({ expires: 1 }));
    set.mockRestore();
  });

  it('shows Submission Failed with the spec text on HTTP 500, sets no cookie and keeps what was typed', async () => {
    server.use(
      http.post('*/api/demo-requests', () => HttpResponse.json({ code: 'internal', message: 'x' }, { status: 500 })),
    );
    const u = setup();
    await toStep2(u);
    await fillRequired(u);
    await u.click(submit());
    const dialog = await screen.findByRole('dialog', { name: 'Submission Failed' });
    expect(dialog).toHaveTextContent(
      'Sorry, something went wrong while submitting your request. Please try again later.',
    );
    expect(Cookies.get(DEMO_SUBMITTED_COOKIE)).toBeUndefined();
    await u.click(within(dialog).getByText('Close'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(field(/^First name/).value).toBe('Ada');
    expect(submit()).toBeEnabled();
  });

  it('shows Submission Failed on a network error', async () => {
    server.use(http.post('*/api/demo-requests', () => HttpResponse.error()));
    const u = setup();
    await toStep2(u);
    await fillRequired(u);
    await u.click(submit());
    expect(await screen.findByRole('dialog', { name: 'Submission Failed' })).toHaveTextContent(
      'Sorry, something went wrong while submitting your request. Please try again later.',
    );
    expect(Cookies.get(DEMO_SUBMITTED_COOKIE)).toBeUndefined();
  });

  describe('with an automation webhook configured', () => {
    const hook = 'https://hooks.automation.example/catch/123/demo';

    it('posts there instead of the API, without the identity token, and succeeds on an ok answer', async () => {
      vi.stubEnv('VITE_DEMO_WEBHOOK_URL', hook);
      server.use(
        http.post(hook, async ({ request }) => {
          posted.push({
            url: request.url,
            body: await request.json(),
            authorization: request.headers.get('authorization'),
          });
          return HttpResponse.json({ status: 'success' });
        }),
      );
      const u = setup({ loggedIn: true });
      await toStep2(u);
      await fillRequired(u);
      await u.click(submit());
      expect(await screen.findByRole('dialog', { name: 'Thank you!' })).toBeInTheDocument();
      expect(posted).toHaveLength(1);
      expect(posted[0]).toMatchObject({ url: hook, authorization: null, body: { email: 'ada@fleet.example' } });
    });

    it.each([
      ['a non-ok answer', () => new HttpResponse('nope', { status: 502 })],
      ['a network error', () => HttpResponse.error()],
    ])('shows Submission Failed on %s', async (_, answer) => {
      vi.stubEnv('VITE_DEMO_WEBHOOK_URL', hook);
      server.use(http.post(hook, answer));
      const u = setup();
      await toStep2(u);
      await fillRequired(u);
      await u.click(submit());
      expect(await screen.findByRole('dialog', { name: 'Submission Failed' })).toBeInTheDocument();
      expect(Cookies.get(DEMO_SUBMITTED_COOKIE)).toBeUndefined();
    });
  });

  it('after success keeps the cookie, so a new visit shows Thank you! again', async () => {
    const u = setup();
    await toStep2(u);
    await fillRequired(u);
    await u.click(submit());
    await screen.findByRole('dialog', { name: 'Thank you!' });
    await waitFor(() => expect(Cookies.get(DEMO_SUBMITTED_COOKIE)).toBe('1'));
  });
});
