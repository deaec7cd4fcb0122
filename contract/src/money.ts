import { z } from 'zod';
import { currencyCodes } from './money-format.ts';

export * from './money-format.ts';

export const currencySchema = z.enum(currencyCodes);
