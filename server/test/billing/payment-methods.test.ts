import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { balanceOf, createNetwork } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { standardProducts, startCheckout } from './support.ts';

const NOT_LOGGED_IN = { code: 'unauthenticated', message: 'User is not logged in' };
const CARD = { card: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };

/** Saved cards and the in-portal payment with the sandbox provider (docs/adr/0031). */
describe(`payment methods and the in-portal checkout on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let products: Awaited<ReturnType<typeof standardProducts>>;

  const call = (c: Call, user?: TestUser) =>
    t.app.inject({ method: c.method, url: c.url, payload: c.payload, headers: user?.headers ?? {} });
  const secretOf = async (user: TestUser): Promise<string> => {
    const res = await call({ method: 'GET', url: '/api/getCustomerSecret' }, user);
    expect(res.statusCode).toBe(200);
    return res.json().clientSecret;
  };
  const addCard = async (user: TestUser, card = CARD) =>
    call(
      {
        method: 'POST',
        url: '/api/sandbox/setup-intents/confirm',
        payload: { ...card, clientSecret: await secretOf(user) },
      },
      user,
    );
  const cardsOf = async (user: TestUser) =>
    (await call({ method: 'GET', url: '/api/billing/payment-methods' }, user)).json().paymentMethods as {
      id: string;
      last4: string;
      isDefault: boolean;
    }[];

  beforeAll(async () => {
    t = await buildTestApp({ billing: { publicUrl: 'http://portal.test' } });
    const admin = await t.buildAdmin();
    products = await standardProducts(t, admin, [(await createNetwork(t.db)).id]);
  });
  afterAll(() => t.close());

  const calls = (): Call[] => [
    { method: 'GET', url: '/api/billing/payment-methods' },
    { method: 'PUT', url: '/api/billing/payment-methods/card_sbx_1/default' },
    { method: 'DELETE', url: '/api/billing/payment-methods/card_sbx_1' },
    { method: 'POST', url: '/api/sandbox/setup-intents/confirm', payload: { ...CARD, clientSecret: 'x_secret_y' } },
    { method: 'POST', url: '/api/sandbox/checkout/pay', payload: { ...CARD, clientSecret: 'x_secret_y' } },
  ];

  it('answers 401 to anonymous callers and 403 to a disabled account on every call', async () => {
    const disabled = await t.buildUser();
    await t.db.updateTable('users').set({ disabled: true }).where('id', '=', disabled.userId).execute();
    for (const c of calls()) {
      const anonymous = await call(c);
      expect({ call: `${c.method} ${c.url}`, status: anonymous.statusCode, body: anonymous.json() }).toEqual({
        call: `${c.method} ${c.url}`,
        status: 401,
        body: NOT_LOGGED_IN,
      });
      const refused = await call(c, disabled);
      expect({ call: `${c.method} ${c.url}`, status: refused.statusCode, code: refused.json().code }).toEqual({
        call: `${c.method} ${c.url}`,
        status: 403,
        code: 'account_disabled',
      });
    }
  });

  it('saves test cards on the SetupIntent of GET /getCustomerSecret, refusing the declining card', async () => {
    const user = await t.buildUser();
    expect(await cardsOf(user)).toEqual([]);
    const secret = await secretOf(user);
    expect(secret).toMatch(/^seti_sbx_[0-9a-f]+_secret_[0-9a-f]+$/);

    const saved = await addCard(user);
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toEqual({
      id: expect.stringMatching(/^card_sbx_/),
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2034,
      isDefault: false,
    });

    const declined = await addCard(user, { ...CARD, card: '4000-0000-0000-0002' });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: 'card_declined', field: 'card' });
    const unknown = await addCard(user, { ...CARD, card: '1234 5678 1234 5678' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'invalid_card', field: 'card' });
    expect(await cardsOf(user)).toHaveLength(1);
  });

  it('answers 400 with the field for a malformed card, expiry or CVC, and 404 for a malformed payment method id', async () => {
    const user = await t.buildUser();
    const clientSecret = await secretOf(user);
    for (const [field, bad] of [
      ['card', { card: '4242 4242' }],
      ['expiry', { expiry: '13/30' }],
      ['cvc', { cvc: '12a' }],
    ] as const) {
      const res = await call(
        { method: 'POST', url: '/api/sandbox/setup-intents/confirm', payload: { ...CARD, clientSecret, ...bad } },
        user,
      );
      expect({ field, status: res.statusCode, body: res.json() }).toMatchObject({
        field,
        status: 400,
        body: { code: 'validation_failed', field },
      });
    }
    const badId = await call({ method: 'DELETE', url: '/api/billing/payment-methods/card-1%3Bdrop' }, user);
    expect(badId.statusCode).toBe(404);
    expect(badId.json()).toMatchObject({ code: 'not_found', field: 'paymentMethodId' });
  });

  it('refuses to save a card whose expiry month has passed, naming the expiry field', async () => {
    const user = await t.buildUser();
    const res = await addCard(user, { ...CARD, expiry: '01/20' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'card_expired', field: 'expiry' });
    expect(await cardsOf(user)).toEqual([]);
  });

  it('a SetupIntent saves one card, for its own customer only', async () => {
    const user = await t.buildUser();
    const other = await t.buildUser();
    await secretOf(other);
    const clientSecret = await secretOf(user);
    const url = '/api/sandbox/setup-intents/confirm';
    const theirs = await call({ method: 'POST', url, payload: { ...CARD, clientSecret } }, other);
    expect(theirs.statusCode).toBe(404);
    const wrong = await call({ method: 'POST', url, payload: { ...CARD, clientSecret: `${clientSecret}0` } }, user);
    expect(wrong.statusCode).toBe(404);
    expect((await call({ method: 'POST', url, payload: { ...CARD, clientSecret } }, user)).statusCode).toBe(201);
    const again = await call({ method: 'POST', url, payload: { ...CARD, clientSecret } }, user);
    expect(again.statusCode).toBe(409);
    expect(await cardsOf(user)).toHaveLength(1);
    expect(await cardsOf(other)).toEqual([]);
  });

  it('makes a card the default and removes one; another user’s card is 404 and stays as it is', async () => {
    const user = await t.buildUser();
    const other = await t.buildUser();
    const first = (await addCard(user)).json().id as string;
    const second = (await addCard(user, { ...CARD, card: '5555 5555 5555 4444', expiry: '01/35' })).json().id as string;
    const theirs = (await addCard(other)).json().id as string;

    const made = await call({ method: 'PUT', url: `/api/billing/payment-methods/${second}/default` }, user);
    expect(made.statusCode).toBe(200);
    expect(
      made.json().paymentMethods.map((m: { last4: string; isDefault: boolean }) => [m.last4, m.isDefault]),
    ).toEqual([
      ['4242', false],
      ['4444', true],
    ]);
    await call({ method: 'PUT', url: `/api/billing/payment-methods/${first}/default` }, user);
    expect((await cardsOf(user)).map((m) => m.isDefault)).toEqual([true, false]);

    for (const c of [
      { method: 'PUT', url: `/api/billing/payment-methods/${theirs}/default` },
      { method: 'DELETE', url: `/api/billing/payment-methods/${theirs}` },
      { method: 'DELETE', url: '/api/billing/payment-methods/card_sbx_unknown' },
    ] as const) {
      const res = await call(c, user);
      expect({ call: `${c.method} ${c.url}`, status: res.statusCode }).toEqual({
        call: `${c.method} ${c.url}`,
        status: 404,
      });
    }
    // Someone who never had a provider customer has no cards to change either.
    const newcomer = await t.buildUser();
    expect((await call({ method: 'DELETE', url: `/api/billing/payment-methods/${first}` }, newcomer)).statusCode).toBe(
      404,
    );

    const removed = await call({ method: 'DELETE', url: `/api/billing/payment-methods/${second}` }, user);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().paymentMethods.map((m: { id: string }) => m.id)).toEqual([first]);
    expect((await cardsOf(other)).map((m) => m.id)).toEqual([theirs]);
  });

  it('the checkout page gets what pays an open session, its buyer only, and pays a token pack: declined, then once', async () => {
    const user = await t.buildUser();
    const stranger = await t.buildUser();
    const admin = await t.buildAdmin();
    const created = await startCheckout(t, user, 'product', products.tokens.priceId);
    expect(created.url).toBe(`http://portal.test/checkout?checkoutSessionId=${created.checkoutSessionId}`);
    expect(created).not.toHaveProperty('clientSecret');
    const read = (who: TestUser) =>
      call({ method: 'GET', url: `/api/checkout?checkoutSessionId=${created.checkoutSessionId}` }, who);

    const open = await read(user);
    expect(open.statusCode).toBe(200);
    expect(open.json()).toMatchObject({
      status: 'open',
      provider: 'sandbox',
      clientSecret: expect.stringMatching(/^cs_sbx_.+_secret_/),
    });
    expect((await read(stranger)).statusCode).toBe(404);
    // A portal admin may follow anyone's session, but never gets what pays it.
    expect((await read(admin)).json()).not.toHaveProperty('clientSecret');

    const clientSecret: string = open.json().clientSecret;
    const pay = (card: string, who: TestUser) =>
      call({ method: 'POST', url: '/api/sandbox/checkout/pay', payload: { ...CARD, card, clientSecret } }, who);

    expect((await pay('4242424242424242', stranger)).statusCode).toBe(404);
    const declined = await pay('4000000000000002', user);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
    expect(await balanceOf(t, user)).toBe(0);
    // An expired card is refused on its expiry date, before anything is charged (issue 32).
    const expired = await call(
      {
        method: 'POST',
        url: '/api/sandbox/checkout/pay',
        payload: { ...CARD, expiry: '01/20', card: '4242424242424242', clientSecret },
      },
      user,
    );
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ code: 'card_expired', field: 'expiry' });
    expect(await balanceOf(t, user)).toBe(0);

    const paid = await pay('4242 4242 4242 4242', user);
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({ checkoutSessionId: created.checkoutSessionId });
    const session = await read(user);
    expect(session.json()).toMatchObject({ status: 'complete', creditsAmount: 100 });
    expect(session.json()).not.toHaveProperty('clientSecret');
    expect(await balanceOf(t, user)).toBe(100);

    const again = await pay('4242424242424242', user);
    expect(again.statusCode).toBe(409);
    expect(await balanceOf(t, user)).toBe(100);
  });
});
