"use client";
import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { table as cls } from "@/components/ui/page";
import { PnL } from "@/components/ui/money";
import { DetailPanel } from "@/components/ui/panel-state";
import { decimalSign, formatMoney, formatQuantity as qty } from "@/lib/money";
import type { Position } from "@/lib/schemas/account-data";
import { ExerciseOption } from "./exercise-option";
import { accountKeys, accountUrls } from "./query-keys";
import { SymbolLink } from "@/components/instruments/symbol-link";

export function PositionsPanel({ accountId, canPlace = false }: { accountId: string; canPlace?: boolean }) {
  const query = useQuery({
    queryKey: accountKeys.positions(accountId),
    queryFn: ({ signal }) => fetchJson<Position[]>(accountUrls.positions(accountId), signal),
  });
  return (
    <DetailPanel title="Positions" testId="positions-panel" query={query}>
      {(positions) =>
        positions.length === 0 ? (
          <p className="text-sm text-slate-500">No positions.</p>
        ) : (
          <div className={cls.wrap}>
            <table className={cls.table}>
              <thead>
                <tr>
                  {["Symbol", "Market", "Type"].map((h) => (
                    <th key={h} className={cls.th}>
                      {h}
                    </th>
                  ))}
                  {["Quantity", "Last", "Cost", "Market value", "Unrealized P&L"].map((h) => (
                    <th key={h} className={`${cls.th} text-right`}>
                      {h}
                    </th>
                  ))}
                  {canPlace ? <th className={`${cls.th} text-right`}>Option</th> : null}
                </tr>
              </thead>
              <tbody>
                {positions.map((p) => (
                  <Fragment key={p.position_id}>
                    <tr>
                      <td className={`${cls.td} font-mono text-xs font-medium`}>
                        <SymbolLink market={p.market} symbol={p.symbol} />
                      </td>
                      <td className={`${cls.td} text-xs`}>{p.market ?? "—"}</td>
                      <td className={`${cls.td} text-xs`}>
                        {p.instrument_type === "OPTION"
                          ? `Option${p.option_strategy ? ` · ${p.option_strategy}` : ""}`
                          : p.instrument_type === "EQUITY"
                            ? "Stock"
                            : (p.instrument_type ?? "—")}
                      </td>
                      <td className={`${cls.td} num`}>{qty(p.quantity)}</td>
                      <td className={`${cls.td} num`}>{formatMoney(p.last_price, p.currency, 2)}</td>
                      <td className={`${cls.td} num`}>{formatMoney(p.cost_price, p.currency, 2)}</td>
                      <td className={`${cls.td} num`}>{formatMoney(p.market_value, p.currency)}</td>
                      <td className={`${cls.td} num`}>
                        <PnL value={p.unrealized_profit_loss}>{formatMoney(p.unrealized_profit_loss, p.currency)}</PnL>
                      </td>
                      {canPlace ? (
                        <td className={`${cls.td} text-right`}>
                          {p.instrument_type === "OPTION" && decimalSign(p.quantity) > 0 && (p.legs?.length ?? 0) <= 1 ? (
                            <ExerciseOption accountId={accountId} symbol={p.symbol} held={p.quantity} />
                          ) : null}
                        </td>
                      ) : null}
                    </tr>
                    {(p.legs ?? []).map((l, i) => (
                      <tr
                        key={`${p.position_id}-leg-${l.leg_id ?? i}`}
                        className="bg-slate-50/60 text-xs text-slate-600"
                        data-testid="position-leg"
                      >
                        <td className={`${cls.td} pl-6 font-mono`}>
                          ↳ <SymbolLink market={p.market} symbol={l.symbol ?? p.symbol} className="text-blue-800 hover:underline" />
                        </td>
                        <td className={cls.td} colSpan={2}>
                          {l.option_type ?? "—"}{" "}
                          {l.option_exercise_price ? `strike ${formatMoney(l.option_exercise_price, undefined, 2)}` : ""}
                        </td>
                        <td className={`${cls.td} num`}>{qty(l.quantity)}</td>
                        <td className={cls.td} colSpan={4}>
                          expires {l.option_expire_date ?? "—"}
                          {l.expiration_type ? ` (${l.expiration_type.toLowerCase()})` : ""} · multiplier ×
                          {l.option_contract_multiplier ?? "—"}
                        </td>
                      </tr>
                    ))}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </DetailPanel>
  );
}
