import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { FeedFormModal } from '../../../src/features/catalogue/FeedFormModal';
import { NetworkFormModal } from '../../../src/features/catalogue/NetworkFormModal';
import { SourcetableImport } from '../../../src/features/catalogue/SourcetableImport';
import { network as fixtureNetwork } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const network = fixtureNetwork({
  id: '6f1c2a1e-6a47-4d0c-9f55-3b0e3c1f0a11',
  slug: 'dutch-rtk',
  name: 'Dutch RTK Network',
  operator: 'GNSS Portal B.V.',
  region: 'Netherlands',
  stationCount: 0,
  onlineStationCount: 0,
  createdAt: '2026-11-23T12:00:00.000Z',
  updatedAt: '2026-11-23T12:00:00.000Z',
});

describe('sourcetable import', () => {
  it('previews with a dry run, then imports, and shows why lines were skipped', async () => {
    const calls: Array<{ text: string; dryRun: boolean }> = [];
    server.use(
      http.post(`*/api/admin/networks/${network.id}/import-sourcetable`, async ({ request }) => {
        const body = (await request.json()) as { text: string; dryRun: boolean };
        calls.push(body);
        return HttpResponse.json({
          dryRun: body.dryRun,
          created: 1,
          updated: 0,
          skipped: 1,
          lines: [
            { line: 1, mountpoint: 'DELF00NLD0', outcome: 'created' },
            {
              line: 2,
              mountpoint: 'EPS',
              outcome: 'skipped',
              reason: "format 'RTCM2.3' is not RTCM 3; this caster carries RTCM 3 streams only",
            },
          ],
        });
      }),
    );
    renderWithProviders(<SourcetableImport network={network} />);
    const u = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    const text = 'STR;DELF00NLD0;Delft;RTCM 3.3;;2;GPS;X;NLD;52.0;4.36;0;0;R;none;B;N;9600;\nSTR;EPS;x;RTCM2.3';
    await u.type(screen.getByLabelText('Sourcetable'), text);

    await u.click(screen.getByRole('button', { name: 'Preview' }));
    await screen.findByText('Preview: 1 would be created, 0 updated, 1 skipped.');
    expect(screen.getByText(/is not RTCM 3/)).toBeInTheDocument();
    expect(calls.at(-1)?.dryRun).toBe(true);

    await u.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Imported: 1 created, 0 updated, 1 skipped.');
    expect(calls.at(-1)).toEqual({ text, dryRun: false });
  });
});

describe('network form', () => {
  it('names the invalid field before calling the API, and shows the server refusing a taken slug at the slug', async () => {
    let posted = 0;
    server.use(
      http.post('*/api/admin/networks', () => {
        posted++;
        return HttpResponse.json(
          { code: 'slug_taken', message: 'Another network already uses this slug.', field: 'slug' },
          { status: 409 },
        );
      }),
    );
    renderWithProviders(<NetworkFormModal onClose={() => {}} />);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('Name:'), 'Nordic');
    await u.type(screen.getByLabelText('Slug:'), 'Not A Slug');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Slug:')).toHaveAttribute('aria-invalid', 'true');
    expect(posted).toBe(0);

    await u.clear(screen.getByLabelText('Slug:'));
    await u.type(screen.getByLabelText('Slug:'), 'nordic-rtk');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Another network already uses this slug.');
    expect(posted).toBe(1);
    expect(screen.getByLabelText('Slug:')).toHaveAttribute('aria-invalid', 'true');
  });

  it('edits the Dutch name and description beside the English ones, and sends them as the Dutch translation', async () => {
    const patched: unknown[] = [];
    server.use(
      http.patch(`*/api/admin/networks/${network.id}`, async ({ request }) => {
        patched.push(await request.json());
        return HttpResponse.json(network);
      }),
    );
    const translated = { ...network, translations: { nl: { name: 'Nederlands RTK-netwerk', description: '' } } };
    renderWithProviders(<NetworkFormModal network={translated} onClose={() => {}} />);
    const u = userEvent.setup();
    expect(screen.getByLabelText('Name in Dutch:')).toHaveValue('Nederlands RTK-netwerk');
    await u.type(screen.getByLabelText('Description in Dutch:'), 'Landelijk RTK-netwerk');
    await u.type(screen.getByLabelText('Region in Dutch:'), 'Nederland');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patched).toHaveLength(1));
    expect(patched[0]).toMatchObject({
      name: 'Dutch RTK Network',
      translations: {
        nl: { name: 'Nederlands RTK-netwerk', description: 'Landelijk RTK-netwerk', region: 'Nederland' },
      },
    });
  });
});

describe('network form: reference frame', () => {
  it('sends the frame, realisation, epoch and national grid an admin typed', async () => {
    const patched: unknown[] = [];
    server.use(
      http.patch(`*/api/admin/networks/${network.id}`, async ({ request }) => {
        patched.push(await request.json());
        return HttpResponse.json(network);
      }),
    );
    renderWithProviders(<NetworkFormModal network={network} onClose={() => {}} />);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('Frame:'), 'ETRS89');
    await u.type(screen.getByLabelText('Realisation:'), 'ETRF2000');
    await u.type(screen.getByLabelText('Epoch:'), '2010,5');
    await u.type(screen.getByLabelText('National grid:'), 'RD/NAP');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patched).toHaveLength(1));
    expect(patched[0]).toMatchObject({
      referenceFrame: { frame: 'ETRS89', realisation: 'ETRF2000', epoch: 2010.5, nationalGrid: 'RD/NAP' },
    });
  });

  it('shows a grid with a semicolon as invalid before calling the API', async () => {
    const patched: unknown[] = [];
    server.use(
      http.patch(`*/api/admin/networks/${network.id}`, async ({ request }) => {
        patched.push(await request.json());
        return HttpResponse.json(network);
      }),
    );
    renderWithProviders(<NetworkFormModal network={network} onClose={() => {}} />);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('Frame:'), 'ETRS89');
    await u.type(screen.getByLabelText('National grid:'), 'RD;NAP');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('National grid:')).toHaveAttribute('aria-invalid', 'true'));
    expect(patched).toEqual([]);
  });
});

describe('feed form', () => {
  it('leaves a stored upstream password alone when the field stays empty', async () => {
    let patch: Record<string, unknown> | undefined;
    const feed = {
      id: '0d9a3a43-2f7a-4cde-8d0c-1c9d8f2b7e01',
      networkId: network.id,
      stationId: '2b1f3c55-9a0e-4d6b-8f41-7a6c0e9d2f10',
      mountpoint: 'DELF00NLD0',
      kind: 'pull' as const,
      enabled: true,
      status: 'idle' as const,
      lastError: null,
      hasSourcePassword: false,
      ownerEmail: null,
      upstream: {
        host: 'caster.partner.example',
        port: 2101,
        mountpoint: 'DELF',
        username: 'portal',
        ntripVersion: 2 as const,
        hasPassword: true,
      },
      createdAt: '2026-11-23T12:00:00.000Z',
      updatedAt: '2026-11-23T12:00:00.000Z',
    };
    server.use(
      http.patch(`*/api/admin/feeds/${feed.id}`, async ({ request }) => {
        patch = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ ...feed, upstream: { ...feed.upstream, host: patch.upstreamHost } });
      }),
    );
    let closed = false;
    renderWithProviders(
      <FeedFormModal
        network={network}
        feed={feed}
        stations={[]}
        onClose={() => {
          closed = true;
        }}
      />,
    );
    const u = userEvent.setup();
    expect(screen.getByText('Leave empty to keep the current password.')).toBeInTheDocument();
    const host = screen.getByLabelText('Upstream host:');
    await u.clear(host);
    await u.type(host, 'caster2.partner.example');
    // The base's owner, who gets its outage alerts.
    await u.type(screen.getByLabelText("Owner's e-mail:"), 'base-owner@example.test');
    await u.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(patch).toMatchObject({
      upstreamHost: 'caster2.partner.example',
      upstreamPort: 2101,
      ownerEmail: 'base-owner@example.test',
    });
    expect(patch).not.toHaveProperty('upstreamPassword');
    expect(patch).not.toHaveProperty('kind');
  });
});
