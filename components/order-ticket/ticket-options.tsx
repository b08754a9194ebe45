"use client";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useFieldArray, useFormContext, useWatch } from "react-hook-form";
import { fetchJson } from "@/components/data-table/fetch-json";
import { fieldId, useFieldError } from "@/components/form/fields";
import { Button } from "@/components/ui/button";
import { errorIdFor, Field, FieldError, Input, Options, Select } from "@/components/ui/field";
import { table as cls } from "@/components/ui/page";
import { formatMoney } from "@/lib/money";
import { nameStrategy, optionLevelProblem, STRATEGY_LABELS, type StrategyLeg } from "@/lib/option-strategy";
import type { TicketValues } from "@/lib/schemas/order-ticket";
import type { TicketOptionContract } from "@/lib/schemas/order-ticket-data";
import { ticketKeys, ticketUrls } from "./ticket-keys";
import { useDebounced } from "./use-debounced";

/**
 * US option legs: the underlying's chain by expiry, a Buy / Sell button per contract adds a leg (one to four); the
 * strategy the legs make is named, and the account's option level is checked as the legs change, with the reason.
 */
export function TicketOptionLegs() {
  const { control, register, setValue } = useFormContext<TicketValues>();
  const legs = useFieldArray({ control, name: "legs" });
  const [root, setRoot] = useState("");
  const settled = useDebounced(root.trim().toUpperCase(), 350);
  const chain = useQuery({
    queryKey: ticketKeys.chain(settled),
    queryFn: ({ signal }) => fetchJson<TicketOptionContract[]>(ticketUrls.chain(settled), signal),
    enabled: settled.length > 0,
  });
  const expiries = useMemo(() => [...new Set((chain.data ?? []).map((c) => c.expiry))], [chain.data]);
  const [expiry, setExpiry] = useState("");
  const shown = expiry && expiries.includes(expiry) ? expiry : expiries[0];
  const rows = useMemo(() => {
    const byStrike = new Map<string, { call?: TicketOptionContract; put?: TicketOptionContract }>();
    for (const c of chain.data ?? []) {
      if (c.expiry !== shown) continue;
      const row = byStrike.get(c.strike_price) ?? {};
      row[c.option_type === "CALL" ? "call" : "put"] = c;
      byStrike.set(c.strike_price, row);
    }
    return [...byStrike.entries()];
  }, [chain.data, shown]);

  const values = useWatch({ control, name: ["legs", "account_option_level", "quantity", "held", "side"] });
  const [current, level, quantity, held] = values;
  const strategy = nameStrategy((current ?? []) as StrategyLeg[]);
  const problem = strategy
    ? optionLevelProblem(level, strategy, current as StrategyLeg[], /^\d+$/.test(quantity) ? quantity : "1", held)
    : undefined;
  const legsId = fieldId("legs");
  // a rule about the whole array sits at `legs.root` (the resolver's place for it); the action's at `legs`
  const rootError = useFieldError("legs.root");
  const arrayError = useFieldError("legs");
  const error = rootError ?? arrayError;

  const add = (c: TicketOptionContract, side: "BUY" | "SELL") => {
    if (legs.fields.length >= 4) return;
    legs.append({
      symbol: c.symbol,
      option_type: c.option_type,
      strike_price: c.strike_price,
      expiry: c.expiry,
      multiplier: c.multiplier,
      side,
      ratio: "1",
    });
    if (legs.fields.length === 0) setValue("side", side);
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="grid grid-cols-2 gap-3">
        <Field id="ticket-underlying" label="Underlying" hint="e.g. AAPL">
          {(describedBy) => (
            <Input
              id="ticket-underlying"
              value={root}
              onChange={(e) => setRoot(e.target.value)}
              className="font-mono uppercase"
              autoComplete="off"
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <Field id="ticket-expiry" label="Expiry">
          <Select id="ticket-expiry" value={shown ?? ""} onChange={(e) => setExpiry(e.target.value)} disabled={!expiries.length}>
            <Options values={expiries} />
          </Select>
        </Field>
      </div>
      {chain.isError ? <p className="text-xs text-red-700">{(chain.error as Error).message}</p> : null}
      {settled && chain.data && !chain.data.length ? <p className="text-xs text-slate-500">No active contracts for {settled}.</p> : null}
      {rows.length ? (
        <div className={`${cls.wrap} max-h-64 overflow-y-auto`}>
          <table className={cls.table} aria-label="Option chain" data-testid="option-chain">
            <thead>
              <tr>
                <th className={`${cls.th} text-right`}>Call last</th>
                <th className={cls.th}>Call</th>
                <th className={`${cls.th} text-center`}>Strike</th>
                <th className={cls.th}>Put</th>
                <th className={`${cls.th} text-right`}>Put last</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([strike, r]) => (
                <tr key={strike}>
                  <td className={`${cls.td} num`}>{r.call ? formatMoney(r.call.last_price, undefined, 2) : "—"}</td>
                  <td className={cls.td}>{r.call ? <LegButtons c={r.call} onAdd={add} /> : null}</td>
                  <td className={`${cls.td} text-center font-medium tabular-nums`}>{formatMoney(strike, undefined, 2)}</td>
                  <td className={cls.td}>{r.put ? <LegButtons c={r.put} onAdd={add} /> : null}</td>
                  <td className={`${cls.td} num`}>{r.put ? formatMoney(r.put.last_price, undefined, 2) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div
        id={legsId}
        tabIndex={-1}
        role="group"
        aria-labelledby={`${legsId}-label`}
        aria-describedby={errorIdFor(legsId, error)}
        className="flex flex-col gap-1"
        data-testid="ticket-legs"
      >
        <p id={`${legsId}-label`} className="text-xs font-medium text-slate-700">
          Legs {legs.fields.length ? `· ${strategy ? STRATEGY_LABELS[strategy] : "no strategy the broker takes"}` : "(pick from the chain)"}
        </p>
        {legs.fields.map((f, i) => (
          <div key={f.id} className="flex items-center gap-2 text-sm" data-testid="ticket-leg">
            <select
              {...register(`legs.${i}.side`)}
              aria-label={`Leg ${i + 1} side`}
              className="h-7 rounded border border-slate-300 px-1 text-xs"
            >
              <option value="BUY">Buy</option>
              <option value="SELL">Sell</option>
            </select>
            <input
              {...register(`legs.${i}.ratio`)}
              aria-label={`Leg ${i + 1} ratio`}
              className="h-7 w-12 rounded border border-slate-300 px-1 text-right text-xs tabular-nums"
            />
            <span className="font-mono text-xs">{f.symbol}</span>
            <span className="text-xs text-slate-600">
              {f.option_type} {formatMoney(f.strike_price, undefined, 2)} · {f.expiry}
            </span>
            <button
              type="button"
              className="ml-auto text-xs text-red-700 hover:underline"
              onClick={() => legs.remove(i)}
              aria-label={`Remove leg ${i + 1}`}
            >
              Remove
            </button>
          </div>
        ))}
        {problem && !error ? (
          <p className="text-xs text-amber-800" data-testid="option-level-problem">
            {problem}
          </p>
        ) : null}
        <FieldError id={legsId} error={error} />
      </div>
    </div>
  );
}

function LegButtons({ c, onAdd }: { c: TicketOptionContract; onAdd: (c: TicketOptionContract, side: "BUY" | "SELL") => void }) {
  return (
    <span className="flex gap-1">
      <Button size="sm" variant="secondary" onClick={() => onAdd(c, "BUY")} aria-label={`Buy ${c.symbol}`}>
        Buy
      </Button>
      <Button size="sm" variant="secondary" onClick={() => onAdd(c, "SELL")} aria-label={`Sell ${c.symbol}`}>
        Sell
      </Button>
    </span>
  );
}
