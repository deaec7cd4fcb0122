import type { HourAvailability, RinexAvailability, RinexJob } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ModalProvider } from '../../../src/components/modal';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { RinexPage } from '../../../src/features/rinex/RinexPage';
import { NETWORK_ID, STATION_ID, station, tokenTables, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const H = 3_600_000;
const JOB_ID = '44444444-4444-4444-8444-444444444444';
const thisHour = Math.floor(Date.now() / H) * H;
const dayStart = thisHour - (thisHour % (24 * H));
const currentIndex = (thisHour - dayStart) / H;

/** The archive as the server would answer for one UTC day: the hour before now full, this hour 40 %, later none. */
function day(from: string, charge: RinexAvailability['charge'] = 'tokens'): RinexAvailability {
  const start = Date.parse(from);
  const hours: HourAvailability[] = Array.from({ length: 24 }, (_, i) => {
    const h = start + i * H;
    const base = { start: new Date(h).toISOString(), bytes: 0, recording: h === thisHour, future: h > thisHour };
    if (h === thisHour - H) return { ...base, status: 'full', percent: 100, bytes: 4_000_000 };
    if (h === thisHour) return { ...base, status: 'partial', percent: 40, bytes: 1_600_000 };
    return { ...base, status: 'none', percent: 0 };
  });
  return {
    station: {
      id: STATION_ID,
      mountpoint: 'DELF00NLD',
      identifier: 'Delft',
      country: 'NLD',
      networkId: NETWORK_ID,
      networkName: 'Dutch RTK',
      latitude: 52,
      longitude: 4.37,
    },
    from,
    to: new Date(start + 24 * H).toISOString(),
    hours,
    hoursWithData: hours.filter((h) => h.status !== 'none').length,
    charge,
    pricePerHour: charge === 'tokens' ? 3 : null,
    price: charge === 'tokens' ? 6 : 0,
  };
}

function job(overrides: Partial<RinexJob> = {}): RinexJob {
  return {
    id: JOB_ID,
    station: { id: STATION_ID, mountpoint: 'DELF00NLD', networkName: 'Dutch RTK' },
    from: new Date(thisHour).toISOString(),
    to: new Date(thisHour + H).toISOString(),
    interval: 30,
    systems: ['G', 'R', 'E', 'C', 'J', 'I'],
    status: 'running',
    progress: 0.45,
    hoursTotal: 1,
    hoursWithData: 1,
    charge: 'tokens',
    tokensCharged: 3,
    tokensRefunded: 0,
    organizationId: null,
    createdByAdmin: false,
    error: null,
    result: null,
    downloadUrl: null,
    expiresAt: null,
    createdAt: new Date().toISOString(),
    startedAt: new Date().toISOString(),
    finishedAt: null,
    ...overrides,
  };
}

function setup(
  options: { route?: string; balance?: number; jobs?: RinexJob[]; handlers?: Parameters<typeof server.use> } = {},
) {
  const requests: { availability: URL[]; created: unknown[] } = { availability: [], created: [] };
  server.use(
    http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [], tokenAmount: options.balance ?? 10 })),
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 }),
    ),
    http.get('*/api/rinex/jobs', () => HttpResponse.json({ items: options.jobs ?? [] })),
    http.get('*/api/tokenProducts', () => HttpResponse.json(tokenTables)),
    http.get('*/api/rinex/availability', ({ request }) => {
      const url = new URL(request.url);
      requests.availability.push(url);
      return HttpResponse.json(day(url.searchParams.get('from') ?? ''));
    }),
    ...(options.handlers ?? []),
  );
  const view = renderWithProviders(<RinexPage />, {
    route: options.route ?? '/rinex?station=DELF00NLD',
    wrapper: (children) => (
      <AuthContext.Provider value={user}>
        <ModalProvider>{children}</ModalProvider>
      </AuthContext.Provider>
    ),
  });
  return { user: userEvent.setup(), requests, ...view };
}

describe('/rinex', () => {
  it("shows the station from the address and what the archive holds per hour of today's UTC day", async () => {
    const { requests } = setup();
    expect(await screen.findByTestId('rinex-station')).toHaveTextContent('DELF00NLD');
    const bar = await screen.findByTestId('availability-bar');
    const cells = within(bar).getAllByRole('button');
    expect(cells).toHaveLength(24);
    expect(cells[currentIndex]).toHaveAttribute('data-status', 'partial');
    expect(cells[currentIndex]).toHaveAccessibleName(/40 % so far, still recording/);
    if (currentIndex > 0) expect(cells[currentIndex - 1]).toHaveAttribute('data-status', 'full');
    if (currentIndex < 23) expect(cells[currentIndex + 1]).toHaveAttribute('data-status', 'future');
    // By default the hour being recorded is chosen.
    expect(cells[currentIndex]).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('rinex-summary')).toHaveTextContent('1 of 1 selected hours hold data.');
    // In tokens and, as everywhere a price shows, in money (8 to 10 cents a token; issue 32).
    await waitFor(() => expect(screen.getByTestId('rinex-total')).toHaveTextContent('Price: 3 tokens (€0.24–€0.30)'));
    const asked = requests.availability[0];
    expect(asked?.searchParams.get('station')).toBe('DELF00NLD');
    expect(asked?.searchParams.get('from')).toBe(new Date(dayStart).toISOString());
    expect(asked?.searchParams.get('to')).toBe(new Date(dayStart + 24 * H).toISOString());
  });

  it('buys after showing price, balance and balance after, with the chosen hours, interval and constellations', async () => {
    let created: unknown;
    const { user: u } = setup({
      balance: 10,
      handlers: [
        http.post('*/api/rinex/jobs', async ({ request }) => {
          created = await request.json();
          return HttpResponse.json(job(), { status: 201 });
        }),
      ],
    });
    await screen.findByTestId('availability-bar');
    await u.selectOptions(screen.getByLabelText('Interval:'), '5');
    await u.click(screen.getByLabelText('SBAS'));
    await u.click(screen.getByLabelText('NavIC'));
    await u.click(screen.getByRole('button', { name: 'Buy RINEX' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy RINEX data' });
    expect(within(dialog).getByTestId('rinex-price')).toHaveTextContent('3 tokens (€0.24–€0.30)');
    await waitFor(() => expect(within(dialog).getByTestId('rinex-balance')).toHaveTextContent('10 tokens'));
    expect(within(dialog).getByTestId('rinex-balance-after')).toHaveTextContent('7 tokens');
    expect(within(dialog).getByText(/still being recorded/)).toBeInTheDocument();
    await u.click(within(dialog).getByRole('button', { name: 'Buy for 3 tokens' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(created).toEqual({
      station: 'DELF00NLD',
      from: new Date(thisHour).toISOString(),
      to: new Date(thisHour + H).toISOString(),
      interval: 5,
      systems: ['G', 'R', 'E', 'C', 'J', 'S'],
    });
  });

  it('offers to buy tokens when the balance is short', async () => {
    const { user: u } = setup({ balance: 2 });
    await screen.findByTestId('availability-bar');
    await u.click(screen.getByRole('button', { name: 'Buy RINEX' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy RINEX data' });
    await waitFor(() => expect(within(dialog).getByTestId('rinex-balance-after')).toHaveTextContent('-1 token'));
    expect(within(dialog).getByTestId('rinex-short')).toHaveTextContent('You need 3 tokens and have 2.');
    expect(within(dialog).getByRole('link', { name: 'Buy tokens' })).toHaveAttribute('href', '/credits');
    expect(within(dialog).getByRole('button', { name: 'Buy for 3 tokens' })).toBeDisabled();
  });

  it("shows the server's numbers when it finds the balance short (it spent meanwhile)", async () => {
    const { user: u } = setup({
      balance: 5,
      handlers: [
        http.post('*/api/rinex/jobs', () =>
          HttpResponse.json(
            { code: 'insufficient_tokens', message: 'Not enough tokens', needed: 3, balance: 1 },
            { status: 402 },
          ),
        ),
      ],
    });
    await screen.findByTestId('availability-bar');
    await u.click(screen.getByRole('button', { name: 'Buy RINEX' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy RINEX data' });
    await waitFor(() => expect(within(dialog).getByTestId('rinex-balance')).toHaveTextContent('5 tokens'));
    await u.click(within(dialog).getByRole('button', { name: 'Buy for 3 tokens' }));
    expect(await within(dialog).findByTestId('rinex-short')).toHaveTextContent('You need 3 tokens and have 1.');
  });

  it('says so when three jobs are already running', async () => {
    const { user: u } = setup({
      handlers: [
        http.post('*/api/rinex/jobs', () =>
          HttpResponse.json({ code: 'too_many_rinex_jobs', message: 'too many' }, { status: 429 }),
        ),
      ],
    });
    await screen.findByTestId('availability-bar');
    await u.click(screen.getByRole('button', { name: 'Buy RINEX' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy RINEX data' });
    await u.click(within(dialog).getByRole('button', { name: 'Buy for 3 tokens' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You already have 3 RINEX jobs running. Wait until one has finished.',
    );
  });

  it('picks hours on the bar: a click chooses one, Shift-click extends to it', async () => {
    if (currentIndex < 2) return;
    const { user: u } = setup();
    const bar = await screen.findByTestId('availability-bar');
    const cells = within(bar).getAllByRole('button');
    await u.click(cells[currentIndex - 2] as HTMLElement);
    await u.keyboard('{Shift>}');
    await u.click(cells[currentIndex] as HTMLElement);
    await u.keyboard('{/Shift}');
    expect(cells.filter((c) => c.getAttribute('aria-pressed') === 'true')).toHaveLength(3);
    expect(screen.getByTestId('rinex-summary')).toHaveTextContent('2 of 3 selected hours hold data.');
    expect(screen.getByTestId('rinex-total')).toHaveTextContent('Price: 6 tokens');
  });

  it('finds a station by name, or nearest to a typed position, and chooses it', async () => {
    const searched: string[] = [];
    const { user: u, requests } = setup({
      route: '/rinex',
      handlers: [
        http.get('*/api/stations', ({ request }) => {
          searched.push(new URL(request.url).searchParams.get('search') ?? '');
          return HttpResponse.json({
            view: 'full',
            total: 1,
            limit: 8,
            offset: 0,
            items: [station({ networkSlug: 'dutch-rtk' })],
          });
        }),
        http.get('*/api/rinex/stations/nearest', ({ request }) => {
          const url = new URL(request.url);
          expect([url.searchParams.get('lat'), url.searchParams.get('lon')]).toEqual(['52.01', '4.36']);
          return HttpResponse.json({
            items: [{ ...day(new Date(dayStart).toISOString()).station, mountpoint: 'NEAR00NLD', distanceKm: 1.4 }],
          });
        }),
      ],
    });
    expect(screen.getByText('Choose a station to see which hours the archive holds.')).toBeInTheDocument();
    await u.type(screen.getByLabelText('Search stations:'), 'delf');
    const found = await screen.findByRole('list', { name: 'Search stations' });
    expect(within(found).getByText('DELF00NLD')).toBeInTheDocument();
    expect(searched.at(-1)).toBe('delf');

    await u.type(screen.getByLabelText('Latitude:'), '52.01');
    await u.type(screen.getByLabelText('Longitude:'), '4.36');
    await u.click(screen.getByRole('button', { name: 'Find nearest' }));
    const near = await screen.findByRole('list', { name: 'Nearest to a position' });
    expect(within(near).getByText(/1\.4 km · Dutch RTK/)).toBeInTheDocument();
    await u.click(within(near).getByRole('button', { name: 'Choose NEAR00NLD' }));
    expect(await screen.findByTestId('rinex-station')).toHaveTextContent('NEAR00NLD');
    await waitFor(() => expect(requests.availability.at(-1)?.searchParams.get('station')).toBe('NEAR00NLD'));
  });

  it('refuses a position out of range without asking the server', async () => {
    const { user: u } = setup({ route: '/rinex' });
    await u.type(screen.getByLabelText('Latitude:'), '95');
    await u.type(screen.getByLabelText('Longitude:'), '4');
    await u.click(screen.getByRole('button', { name: 'Find nearest' }));
    expect(screen.getByText(/Latitude −90 to 90/)).toBeInTheDocument();
  });

  it('reads a decimal comma or a blank longitude as no position, and says so until both are numbers', async () => {
    const asked: string[] = [];
    const { user: u } = setup({
      route: '/rinex',
      handlers: [
        http.get('*/api/rinex/stations/nearest', ({ request }) => {
          asked.push(new URL(request.url).search);
          return HttpResponse.json({ items: [] });
        }),
      ],
    });
    await u.type(screen.getByLabelText('Latitude:'), '52,01');
    await u.click(screen.getByRole('button', { name: 'Find nearest' }));
    expect(screen.getByText(/Latitude −90 to 90/)).toBeInTheDocument();
    await u.clear(screen.getByLabelText('Latitude:'));
    await u.type(screen.getByLabelText('Latitude:'), '52.01');
    expect(screen.getByText(/Latitude −90 to 90/)).toBeInTheDocument();
    await u.type(screen.getByLabelText('Longitude:'), '4.36');
    expect(screen.queryByText(/Latitude −90 to 90/)).not.toBeInTheDocument();
    expect(asked).toEqual([]);
    await u.click(screen.getByRole('button', { name: 'Find nearest' }));
    expect(await screen.findByText('No station found.')).toBeInTheDocument();
    expect(asked).toHaveLength(1);
  });

  it('lists the history: a progress bar while converting, the download until it expires, refunds of failures', async () => {
    setup({
      jobs: [
        job(),
        job({
          id: '55555555-5555-4555-8555-555555555555',
          status: 'done',
          progress: 1,
          result: { fileName: 'DELF00NLD_R_20263280900_01H_30S_MO.zip', bytes: 2_400_000, epochs: 120, files: [] },
          downloadUrl:
            'http://localhost/api/rinex/jobs/55555555-5555-4555-8555-555555555555/download?expires=1&signature=x',
          expiresAt: new Date(Date.now() + 7 * 24 * H).toISOString(),
        }),
        job({
          id: '66666666-6666-4666-8666-666666666666',
          status: 'failed',
          tokensRefunded: 3,
          error: { code: 'conversion_no_data_in_window', message: 'none' },
        }),
      ],
    });
    const history = await screen.findByRole('list', { name: 'Your RINEX files' });
    const [running, done, failed] = within(history).getAllByTestId('rinex-job');
    expect(within(running as HTMLElement).getByRole('progressbar', { name: 'Conversion progress' })).toHaveAttribute(
      'aria-valuenow',
      '45',
    );
    expect(running).toHaveTextContent('Converting: 45 %');
    expect(within(done as HTMLElement).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      'http://localhost/api/rinex/jobs/55555555-5555-4555-8555-555555555555/download?expires=1&signature=x',
    );
    expect(done).toHaveTextContent('120 epochs · 2.4 MB');
    expect(failed).toHaveTextContent('3 tokens were given back.');
  });
});
