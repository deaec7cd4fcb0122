import { z } from 'zod';

/**
 * `GET /admin/operator`: the operator dashboard's figures (docs/adr/0028), each computed from the portal's own
 * tables at the time of the call. Money is in minor units per currency, never summed across currencies.
 */
export const OPERATOR_WINDOW_DAYS = 30;

const moneyByCurrency = z.array(z.object({ currency: z.string(), amount: z.number().int() }));

export const operatorNetworkSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  activeSubscriptions: z.number().int(),
  /** Subscriptions' prices brought to a month (yearly / 12, weekly × 52 / 12), per currency. */
  monthlyRecurringRevenue: moneyByCurrency,
  roversConnected: z.number().int(),
  stations: z.number().int(),
  stationsWithData: z.number().int(),
  /** Tokens spent on this network's activations in the window. */
  tokensSpent: z.number().int(),
});
export type OperatorNetwork = z.infer<typeof operatorNetworkSchema>;

export const operatorDaySchema = z.object({
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  revenue: moneyByCurrency,
  refunds: moneyByCurrency,
  tokensSold: z.number().int(),
  tokensSpent: z.number().int(),
});
export type OperatorDay = z.infer<typeof operatorDaySchema>;

export const operatorDashboardSchema = z.object({
  generatedAt: z.string(),
  windowDays: z.number().int(),
  activeSubscriptions: z.number().int(),
  monthlyRecurringRevenue: moneyByCurrency,
  revenue: moneyByCurrency,
  refunds: moneyByCurrency,
  tokensSold: z.number().int(),
  tokensSpent: z.number().int(),
  roversConnected: z.number().int(),
  /** False when a caster node did not answer (or none runs beside this API): rovers connected is then a floor. */
  liveComplete: z.boolean(),
  stationsWithData: z.number().int(),
  stations: z.number().int(),
  /** One entry per day of the window, oldest first, days without activity included. */
  days: z.array(operatorDaySchema),
  networks: z.array(operatorNetworkSchema),
});
export type OperatorDashboard = z.infer<typeof operatorDashboardSchema>;
