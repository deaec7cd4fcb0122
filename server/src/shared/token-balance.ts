import { MAX_TOKEN_BALANCE } from '@portal/contract';
import { AppError } from './errors.ts';

/** A personal or an organisation's token balance beyond the most one may hold. */
const count = new Intl.NumberFormat('en-US');
export const balanceOutOfRange = (next: number) =>
  new AppError(
    400,
    'out_of_range',
    `A token balance may hold at most ${count.format(MAX_TOKEN_BALANCE)} tokens; this would make it ${count.format(next)}.`,
    'tokenAmount',
  );
