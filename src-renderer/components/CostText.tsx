/**
 * An estimated cost, or "price unknown" with how to give the model a price, never a
 * bare "—" that reads like nothing was spent (issue 25 item 3).
 */
import { PRICE_HOW_TO, PRICE_UNKNOWN } from '@shared/ipc';
import { formatUsd } from '@shared/pricing';

export function CostText({ usd }: { usd: number | null }) {
  if (usd !== null) return <>{formatUsd(usd)}</>;
  return (
    <span className="price-unknown" title={PRICE_HOW_TO} data-price-unknown="true">
      {PRICE_UNKNOWN}
    </span>
  );
}
