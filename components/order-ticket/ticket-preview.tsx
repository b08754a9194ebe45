"use client";
import Link from "next/link";
import type { ReactNode } from "react";
import { formatMoney } from "@/lib/money";
import { blockingFindings, type PreTradeCode, type PreTradeFinding } from "@/lib/pre-trade";
import type { TicketPlaced, TicketPreview } from "@/lib/schemas/order-ticket-data";

const Row = ({ label, children, strong, testId }: { label: string; children: ReactNode; strong?: boolean; testId?: string }) => (
  <div className="flex items-baseline justify-between gap-3 py-0.5">
    <dt className="text-slate-600">{label}</dt>
    <dd className={`tabular-nums text-right ${strong ? "font-semibold text-slate-900" : ""}`} data-testid={testId}>
      {children}
    </dd>
  </div>
);

/** The upstream's estimate: commission and fees (actual and list), the cost, and what the order does to buying power. */
export function PreviewSummary({ preview }: { preview: TicketPreview }) {
  const c = preview.currency;
  return (
    <dl className="text-sm" data-testid="ticket-preview">
      <Row label="Commission">
        <span data-testid="preview-commission">{formatMoney(preview.commission.actual, c)}</span>
        {preview.commission.receivable !== preview.commission.actual ? (
          <span className="ml-1 text-xs text-slate-500 line-through" title="List price">
            {formatMoney(preview.commission.receivable, c)}
          </span>
        ) : null}
      </Row>
      {preview.fees.map((f) => (
        <Row key={f.type} label={feeLabel(f.type)} testId={`preview-fee-${f.type}`}>
          {formatMoney(f.actual, c)}
        </Row>
      ))}
      <Row label="Commission and fees" strong testId="preview-fee-total">
        {formatMoney(preview.estimated_fee, c)}
      </Row>
      <Row label="Estimated cost" testId="preview-cost">
        {formatMoney(preview.estimated_cost, c)}
      </Row>
      <div className="my-1 border-t border-slate-100" />
      <Row label="Buying power now">{formatMoney(preview.buying_power, c)}</Row>
      <Row label="Held by this order" testId="preview-hold">
        {preview.hold === "0" ? "none" : `−${formatMoney(preview.hold, c)}`}
      </Row>
      <Row label="Buying power after" strong testId="preview-bp-after">
        {formatMoney(preview.buying_power_after, c)}
      </Row>
    </dl>
  );
}

const CHECK_TITLES: Record<PreTradeFinding["code"], string> = {
  PRICE_BAND: "Price far from the market",
  BUYING_POWER: "Not enough buying power",
  QUANTITY: "Quantity not allowed",
};

/**
 * The pre-trade checks' findings under the preview: each in words; one the policy lets the operator override has
 * its "Place anyway" box (the override goes into the audited order), the others must be fixed in the ticket.
 */
export function PreTradeChecks({
  checks,
  overrides,
  onOverrides,
}: {
  checks: PreTradeFinding[];
  overrides: PreTradeCode[];
  onOverrides: (codes: PreTradeCode[]) => void;
}) {
  if (checks.length === 0)
    return (
      <p className="text-xs text-emerald-800" data-testid="pre-trade-clear">
        Pre-trade checks passed.
      </p>
    );
  const blocking = blockingFindings(checks, overrides);
  const codes = [...new Set(checks.filter((c) => c.overridable).map((c) => c.code))];
  return (
    <div className="flex flex-col gap-1.5" data-testid="pre-trade-checks" role="group" aria-label="Pre-trade checks">
      <ul className="flex flex-col gap-1.5">
        {checks.map((c, i) => (
          <li
            key={`${c.code}-${i}`}
            data-testid={`pre-trade-${c.code}`}
            className={`rounded border px-2 py-1 text-xs ${c.overridable ? "border-amber-300 bg-amber-50 text-amber-900" : "border-red-300 bg-red-50 text-red-900"}`}
          >
            <span className="font-semibold">{CHECK_TITLES[c.code]}.</span> {c.message}
            {c.overridable ? null : <span className="block text-red-800">Change the ticket to place it.</span>}
          </li>
        ))}
      </ul>
      {codes.map((code) => (
        <label key={code} className="flex items-start gap-1.5 text-xs text-slate-800">
          <input
            type="checkbox"
            className="mt-0.5"
            checked={overrides.includes(code)}
            onChange={(e) => onOverrides(e.target.checked ? [...overrides, code] : overrides.filter((o) => o !== code))}
          />
          <span>Place anyway: {CHECK_TITLES[code].toLowerCase()} (recorded in the audit trail)</span>
        </label>
      ))}
      {blocking.length ? <p className="sr-only">Place order is unavailable until the checks above are cleared.</p> : null}
    </div>
  );
}

const FEE_LABELS: Record<string, string> = {
  SEC_FEE: "SEC fee",
  FINRA_TAF: "FINRA TAF",
  OCC_CLEARING_FEE: "OCC clearing fee",
  STAMP_DUTY: "Stamp duty",
  SFC_LEVY: "SFC levy",
  TRADING_FEE: "Trading fee",
  HANDLING_FEE: "Handling fee",
};
const feeLabel = (t: string) => FEE_LABELS[t] ?? (t || "Fee");

/** What was placed: every order of the request with its upstream id, and where to follow it. */
export function PlacedSummary({ placed, onNew }: { placed: TicketPlaced; onNew: () => void }) {
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="ticket-placed">
      <p className="font-medium text-emerald-800">Order placed.</p>
      <ul className="flex flex-col gap-1">
        {placed.orders.map((o) => (
          <li key={o.client_order_id} className="flex flex-wrap gap-x-2 text-xs">
            <span className="font-mono">{o.client_order_id}</span>
            <span className="text-slate-600">
              {o.combo_type} · {o.side} {o.order_type}
            </span>
            {o.order_id ? <span className="text-slate-500">order {o.order_id}</span> : null}
          </li>
        ))}
      </ul>
      <div className="flex gap-3">
        <Link href={`/orders?account=${encodeURIComponent(placed.account_id)}`} className="text-blue-700 hover:underline">
          Open the account&apos;s orders
        </Link>
        <button type="button" className="text-blue-700 hover:underline" onClick={onNew}>
          New ticket
        </button>
      </div>
    </div>
  );
}
