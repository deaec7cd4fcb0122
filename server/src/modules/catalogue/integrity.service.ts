import type { IntegrityActionBody, NetworkIntegritySettings } from '@portal/contract';
import { ecefToGeodetic } from '@portal/gnss';
import { conflict, notFound } from '../../shared/errors.ts';
import type { IntegrityRepo, NetworkIntegrityRow } from './integrity.repo.ts';

const presentSettings = (row: NetworkIntegrityRow): NetworkIntegritySettings => ({
  movedHorizontalM: row.integrity_moved_horizontal_m,
  movedVerticalM: row.integrity_moved_vertical_m,
  goodPeriodSeconds: row.integrity_good_period_s,
});

export function createIntegrityService(deps: { repo: IntegrityRepo; now: () => Date }) {
  const { repo } = deps;
  return {
    /** Acknowledge, override (or stop overriding) the monitor, or accept the position the station sends. */
    async act(stationId: string, { action }: IntegrityActionBody): Promise<void> {
      if (action === 'acknowledge') {
        if (!(await repo.acknowledge(stationId, deps.now()))) throw notFound('Station');
        return;
      }
      if (action === 'override' || action === 'clear_override') {
        if (!(await repo.setOverride(stationId, action === 'override'))) throw notFound('Station');
        return;
      }
      const position = await repo.receivedPosition(stationId);
      if (position === undefined) throw notFound('Station');
      if (position === null) {
        throw conflict('conflict', 'The station has sent no reference position (1005/1006) to accept yet.');
      }
      await repo.resurvey(stationId, ecefToGeodetic([position.x, position.y, position.z]));
    },

    async networkSettings(networkId: string): Promise<NetworkIntegritySettings> {
      const row = await repo.networkSettings(networkId);
      if (!row) throw notFound('Network');
      return presentSettings(row);
    },

    async setNetworkSettings(networkId: string, body: NetworkIntegritySettings): Promise<NetworkIntegritySettings> {
      const row = await repo.setNetworkSettings(networkId, {
        integrity_moved_horizontal_m: body.movedHorizontalM,
        integrity_moved_vertical_m: body.movedVerticalM,
        integrity_good_period_s: body.goodPeriodSeconds,
      });
      if (!row) throw notFound('Network');
      return presentSettings(row);
    },
  };
}

export type IntegrityService = ReturnType<typeof createIntegrityService>;
