"use client";
import { useFormContext, useWatch } from "react-hook-form";
import { fieldId, formFields, useFieldError } from "@/components/form/fields";
import { SIDE_LABELS } from "@/components/orders/order-labels";
import { FieldError, Options } from "@/components/ui/field";
import {
  COMBO_LABELS,
  COMBOS_BY_MARKET,
  isTrailing,
  needsLimit,
  needsStop,
  OPTION_ORDER_TYPES,
  SESSION_LABELS,
  SESSIONS,
  STOCK_ORDER_TYPES,
  type TicketMarket,
  type TicketValues,
} from "@/lib/schemas/order-ticket";
import { ORDER_TYPE_LABELS } from "@/lib/schemas/order-type-labels";

const { TextField, DateField, SelectField, CheckboxField } = formFields<TicketValues>();
const num = "text-right tabular-nums";

/** Side, quantity or amount, order type with the prices it needs, time in force and session: what the market allows. */
export function TicketOrderFields({ currency }: { currency: string }) {
  const { control } = useFormContext<TicketValues>();
  const [market, type, orderType, entrust, tif, trailingType] = useWatch({
    control,
    name: ["market", "instrument_type", "order_type", "entrust_type", "time_in_force", "trailing_type"],
  });
  const option = type === "OPTION";
  const orderTypes: readonly string[] = option ? OPTION_ORDER_TYPES : STOCK_ORDER_TYPES[market];
  return (
    <div className="grid grid-cols-4 gap-3">
      <SelectField name="side" label="Side" required>
        <Options values={option || market !== "US" ? ["BUY", "SELL"] : ["BUY", "SELL", "SHORT"]} labels={SIDE_LABELS} />
      </SelectField>
      <SelectField name="order_type" label="Order type" required>
        <Options values={orderTypes} labels={ORDER_TYPE_LABELS} />
      </SelectField>
      {option ? (
        <TextField name="quantity" label="Quantity (units)" required inputMode="numeric" className={num} />
      ) : (
        <SelectField name="entrust_type" label="By" required>
          <option value="QTY">Quantity</option>
          <option value="AMOUNT">Amount ({currency})</option>
        </SelectField>
      )}
      {option ? null : entrust === "AMOUNT" ? (
        <TextField name="total_cash_amount" label={`Amount (${currency})`} required inputMode="decimal" className={num} />
      ) : (
        <TextField name="quantity" label="Quantity" required inputMode="decimal" className={num} />
      )}
      {needsLimit(orderType) ? (
        <TextField
          name="limit_price"
          label={option ? `Net limit (${currency})` : `Limit price (${currency})`}
          required
          inputMode="decimal"
          className={num}
        />
      ) : null}
      {needsStop(orderType) ? (
        <TextField
          name="stop_price"
          label={orderType.startsWith("TOUCH") ? `Touch price (${currency})` : `Stop price (${currency})`}
          required
          inputMode="decimal"
          className={num}
        />
      ) : null}
      {isTrailing(orderType) ? (
        <>
          <SelectField name="trailing_type" label="Trail by" required>
            <option value="AMOUNT">Amount</option>
            <option value="PERCENTAGE">Percentage</option>
          </SelectField>
          <TextField
            name="trailing_stop_step"
            label={trailingType === "PERCENTAGE" ? "Trail (%)" : `Trail (${currency})`}
            required
            inputMode="decimal"
            className={num}
          />
          {orderType === "TRAILING_STOP_LOSS_LIMIT" ? (
            <TextField
              name="trailing_limit_price_offset"
              label={`Limit offset (${currency})`}
              required
              inputMode="decimal"
              className={num}
            />
          ) : null}
        </>
      ) : null}
      <SelectField name="time_in_force" label="Time in force" required>
        <option value="DAY">Day</option>
        <option value="GTC">Good till cancelled</option>
        <option value="GTD">Good till date</option>
      </SelectField>
      {tif === "GTD" ? <DateField name="expire_date" label="Expires on" required /> : null}
      <SelectField name="trading_session" label="Session" required>
        <Options values={SESSIONS[market]} labels={SESSION_LABELS} />
      </SelectField>
      {option ? null : <ComboFields currency={currency} />}
    </div>
  );
}

const COMBO_HINTS: Partial<Record<TicketMarket, string>> = {
  US: "US stocks: OTO and OTOCO are not offered by the broker",
  CN: "China A: single limit or auction-limit orders, no stops",
};

/** The combo this market's upstream accepts, and the prices of its other orders. */
function ComboFields({ currency }: { currency: string }) {
  const { control } = useFormContext<TicketValues>();
  const [market, combo, profit, loss, ocoType] = useWatch({
    control,
    name: ["market", "combo", "profit_enabled", "loss_enabled", "oco_order_type"],
  });
  const bracket = combo === "MASTER" || combo === "OTO" || combo === "OTOCO";
  const childrenError = useFieldError("profit_enabled");
  return (
    <>
      <div className="col-span-4 border-t border-slate-100 pt-2" />
      <SelectField name="combo" label="Combo" required hint={COMBO_HINTS[market]}>
        <Options values={COMBOS_BY_MARKET[market]} labels={COMBO_LABELS} />
      </SelectField>
      {bracket ? (
        <>
          <div className="flex flex-col justify-end gap-1 pb-1">
            {/* The pair's rule has its error at profit_enabled: under both, and describing both. */}
            <CheckboxField name="profit_enabled" label="Take profit (limit)" errorOf="profit_enabled" />
            <CheckboxField name="loss_enabled" label="Stop loss (stop)" errorOf="profit_enabled" />
            <FieldError id={fieldId("profit_enabled")} error={childrenError} />
          </div>
          {profit ? (
            <TextField name="profit_limit_price" label={`Take-profit price (${currency})`} required inputMode="decimal" className={num} />
          ) : (
            <span />
          )}
          {loss ? (
            <TextField name="loss_stop_price" label={`Stop-loss price (${currency})`} required inputMode="decimal" className={num} />
          ) : (
            <span />
          )}
        </>
      ) : null}
      {combo === "OCO" ? (
        <>
          <SelectField name="oco_order_type" label="Other order" required>
            <option value="STOP_LOSS">Stop</option>
            <option value="STOP_LOSS_LIMIT">Stop limit</option>
            <option value="LIMIT">Limit</option>
          </SelectField>
          {needsStop(ocoType) ? (
            <TextField name="oco_stop_price" label={`Other: stop (${currency})`} required inputMode="decimal" className={num} />
          ) : (
            <span />
          )}
          {needsLimit(ocoType) ? (
            <TextField name="oco_limit_price" label={`Other: limit (${currency})`} required inputMode="decimal" className={num} />
          ) : (
            <span />
          )}
        </>
      ) : null}
    </>
  );
}
