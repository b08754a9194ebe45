"use client";
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { PnL } from "@/components/ui/money";
import { DetailPanel } from "@/components/ui/panel-state";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { formatMoney } from "@/lib/money";
import type { Balance, CurrencyAsset } from "@/lib/schemas/account-data";
import { accountKeys, accountUrls } from "./query-keys";

/** An amount of one currency, in that currency; a P&L in its colour. */
const amount = (k: Exclude<keyof CurrencyAsset, "currency">, head: string, pnl = false): RowColumn<CurrencyAsset> => ({
  head,
  numeric: true,
  cell: (a) => <PnL value={pnl ? a[k] : undefined}>{formatMoney(a[k])}</PnL>,
});
const CURRENCY_COLUMNS: RowColumn<CurrencyAsset>[] = [
  { head: "Currency", className: "font-medium", cell: (a) => a.currency },
  amount("cash_balance", "Cash"),
  amount("settled_cash", "Settled"),
  amount("unsettled_cash", "Unsettled"),
  amount("buying_power", "Buying power"),
  amount("market_value", "Market value"),
  amount("init_margin", "Initial margin"),
  amount("unrealized_profit_loss", "Unrealized P&L", true),
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
            <RowsTable columns={CURRENCY_COLUMNS} rows={b.account_currency_assets} rowKey={(a) => a.currency} />
            <p className="text-xs text-slate-500">Totals in {ccy ?? "the account currency"}; per-currency amounts in their own currency.</p>
          </div>
        );
      }}
    </DetailPanel>
  );
}
