import type { Database } from '../../db/client.ts';
import { createSettingsRepo } from './settings.repo.ts';
import { settingsRoutes } from './settings.routes.ts';
import { createSettingsService } from './settings.service.ts';

export { accessGraceInterval, readSettings } from './settings.repo.ts';
export { createSignUpGate } from './sign-up.ts';

import type {} from './settings.tables.ts';

export function createSettingsModule(deps: { db: Database }) {
  const service = createSettingsService({ repo: createSettingsRepo(deps.db) });
  return { service, routes: settingsRoutes(service) };
}
