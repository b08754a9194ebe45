"use client";
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { table as cls } from "@/components/ui/page";
import { PnL } from "@/components/ui/money";
import { DetailPanel } from "@/components/ui/panel-state";
import { formatMoney } from "@/lib/money";
import type { Balance, CurrencyAsset } from "@/lib/schemas/account-data";
import { accountKeys, accountUrls } from "./query-keys";

const COLUMNS: [keyof CurrencyAsset, string][] = [
  ["cash_balance", "Cash"],
  ["settled_cash", "Settled"],
  ["unsettled_cash", "Unsettled"],
  ["buying_power", "Buying power"],
  ["market_value", "Market value"],
  ["init_margin", "Initial margin"],
  ["unrealized_profit_loss", "Unrealized P&L"],
];

export function BalancePanel({ accountId }: { accountId: string }) {
  const query = useQuery({
    queryKey: accountKeys.balance(accountId),
    queryFn: ({ signal }) => fetchJson<Balance>(accountUrls.balance(accountId), signal),
  });
  return (
    <DetailPanel title="Balance" testId="balance-panel" query={query}>
      {(b) => {
        const ccy = b.total_asset_currency;
        return (
          <div className="flex flex-col gap-3">
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
              {[
                ["Total assets", b.total_asset],
                ["Cash", b.total_cash_balance],
                ["Market value", b.total_market_value],
                ["Initial margin", b.init_margin],
                ["Unrealized P&L", b.total_unrealized_profit_loss],
              ].map(([label, v]) => (
                <div key={label}>
                  <dt className="text-xs text-slate-500">{label}</dt>
                  <dd className="font-semibold tabular-nums">
                    <PnL value={label === "Unrealized P&L" ? v : undefined}>{formatMoney(v, ccy)}</PnL>
                  </dd>
                </div>
              ))}
            </dl>
            <div className={cls.wrap}>
              <table className={cls.table}>
                <thead>
                  <tr>
                    <th className={cls.th}>Currency</th>
                    {COLUMNS.map(([, h]) => (
                      <th key={h} className={`${cls.th} text-right`}>
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {b.account_currency_assets.map((a) => (
                    <tr key={a.currency}>
                      <td className={`${cls.td} font-medium`}>{a.currency}</td>
                      {COLUMNS.map(([k]) => (
                        <td key={k} className={`${cls.td} num`}>
                          <PnL value={k === "unrealized_profit_loss" ? a[k] : undefined}>{formatMoney(a[k] as string | undefined)}</PnL>
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className="text-xs text-slate-500">Totals in {ccy ?? "the account currency"}; per-currency amounts in their own currency.</p>
          </div>
        );
      }}
    </DetailPanel>
  );
}
