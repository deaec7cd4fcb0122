import { useEffect } from 'react';
import { useTokenBalance } from '../../features/billing/useTokenBalance';

/** Runs the header's balance query (useTokenBalance) and hands the balance to the header, which draws it. */
export function TokenBalanceSource({ onChange }: { onChange: (balance: number | undefined) => void }) {
  const { balance } = useTokenBalance();
  useEffect(() => onChange(balance), [balance, onChange]);
  return null;
}
