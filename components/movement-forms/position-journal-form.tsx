"use client";
import { useQuery } from "@tanstack/react-query";
import { useWatch } from "react-hook-form";
import type { z } from "zod";
import { fetchJson } from "@/components/data-table/fetch-json";
import { fieldId, formFields, FormSection } from "@/components/form/fields";
import { Field, Select } from "@/components/ui/field";
import { compareDecimal, formatQuantity } from "@/lib/money";
import { movementFormKeys, movementFormUrls, type HeldPosition } from "@/lib/schemas/movement-form-data";
import { positionJournalSchema, type PositionJournalRequest } from "@/lib/schemas/movements";
import { createPositionJournalAction } from "@/server/actions/movements";
import { JournalAccounts } from "./account-picker";
import { MovementFormShell } from "./movement-form-shell";
import { useJournalAccounts, type JournalStart } from "./use-journal-accounts";
import { useMovementForm } from "./use-movement-form";

type Values = z.input<typeof positionJournalSchema>;
const { SelectField, TextField } = formFields<Values>();
const keyOf = (p: { instrument_type: string; market: string; symbol: string }) => `${p.instrument_type}|${p.market}|${p.symbol}`;

/** Stock or option contracts between two virtual accounts; the quantity is limited to what the source holds. */
export function PositionJournalForm(initial: JournalStart) {
  const accounts = useJournalAccounts(initial);
  const positions = useQuery({
    queryKey: movementFormKeys.positions(accounts.from?.account_id ?? ""),
    queryFn: ({ signal }) => fetchJson<HeldPosition[]>(movementFormUrls.positions(accounts.from!.account_id), signal),
    enabled: !!accounts.from,
  });
  const heldOf = (r: { instrument_type: string; market: string; symbol: string }) => positions.data?.find((p) => keyOf(p) === keyOf(r));
  const m = useMovementForm<Values, PositionJournalRequest>({
    kind: "POSITION_JOURNAL",
    schema: positionJournalSchema,
    blank: (id) => ({ ...accounts.blank(id), instrument_type: "EQUITY", market: "US", symbol: "", quantity: "" }),
    action: createPositionJournalAction,
    check: (r, form) => {
      if (!positions.data) return true; // the server checks again in any case
      const held = heldOf(r);
      if (!held) {
        form.setError("symbol", { message: `The source account holds no ${r.symbol}` }, { shouldFocus: true });
        return false;
      }
      if (compareDecimal(r.quantity, held.quantity) > 0) {
        form.setError("quantity", { message: `More than held: ${formatQuantity(held.quantity)} ${r.symbol}` }, { shouldFocus: true });
        return false;
      }
      return true;
    },
  });
  const [type, market, symbol] = useWatch({ control: m.form.control, name: ["instrument_type", "market", "symbol"] });
  const chosen = heldOf({ instrument_type: type ?? "", market: market ?? "", symbol: (symbol ?? "").trim().toUpperCase() });
  const choosePosition = (key: string) => {
    const p = positions.data?.find((x) => keyOf(x) === key);
    if (!p) return;
    m.form.setValue("instrument_type", p.instrument_type === "OPTION" ? "OPTION" : "EQUITY");
    m.form.setValue("market", p.market as Values["market"]);
    m.form.setValue("symbol", p.symbol);
    m.form.clearErrors(["symbol", "quantity"]);
  };
  const pickerId = fieldId("position");

  return (
    <MovementFormShell
      m={m}
      summary={(r) => [
        ...accounts.summary(r),
        ["Instrument", `${r.instrument_type === "OPTION" ? "Option" : "Stock"} · ${r.market}`],
        [
          "Symbol",
          <span key="s" className="font-mono">
            {r.symbol}
          </span>,
        ],
        [
          "Quantity",
          <b key="q" data-testid="review-quantity">
            {formatQuantity(r.quantity)}
            {r.instrument_type === "OPTION" ? " contracts" : " shares"}
          </b>,
        ],
      ]}
    >
      <JournalAccounts scope="virtual" {...accounts.pickers(m.form)} />
      <FormSection title="Position">
        <Field
          id={pickerId}
          label="Held position"
          hint={
            accounts.from
              ? positions.isFetching
                ? "Reading the positions…"
                : positions.data?.length === 0
                  ? "This account holds nothing."
                  : "Fills in the instrument below"
              : "Choose the source account first"
          }
        >
          {(describedBy) => (
            <Select
              id={pickerId}
              value={chosen ? keyOf(chosen) : ""}
              onChange={(e) => choosePosition(e.target.value)}
              disabled={!positions.data?.length}
              aria-describedby={describedBy}
            >
              <option value="">{positions.data?.length ? "Choose a position…" : "—"}</option>
              {positions.data?.map((p) => (
                <option key={keyOf(p)} value={keyOf(p)}>
                  {p.symbol} · {p.instrument_type === "OPTION" ? "option" : "stock"} · {p.market} · {formatQuantity(p.quantity)} held
                </option>
              ))}
            </Select>
          )}
        </Field>
        <div className="grid gap-3 md:grid-cols-[8rem_7rem_minmax(0,1fr)_9rem]">
          <SelectField name="instrument_type" label="Instrument" required>
            <option value="EQUITY">Stock</option>
            <option value="OPTION">Option</option>
          </SelectField>
          <SelectField name="market" label="Market" required>
            <option value="US">US</option>
            <option value="HK">HK</option>
            <option value="CN">CN</option>
          </SelectField>
          <TextField
            name="symbol"
            label={type === "OPTION" ? "OCC symbol" : "Symbol"}
            required
            placeholder={type === "OPTION" ? "AAPL261218C00200000" : "AAPL"}
            className="font-mono uppercase"
            autoComplete="off"
          />
          <TextField
            name="quantity"
            label="Quantity"
            required
            inputMode="decimal"
            className="text-right tabular-nums"
            hint={chosen ? <span data-testid="held-quantity">Held: {formatQuantity(chosen.quantity)}</span> : undefined}
          />
        </div>
      </FormSection>
    </MovementFormShell>
  );
}
