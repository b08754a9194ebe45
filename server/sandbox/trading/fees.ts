import "server-only";
import { Decimal } from "../money";

/**
 * Commission and fees of one execution. "Receivable" is the list price; "actual" is what the account pays after the
 * discount of its commission_code (COMMISSION_GROUP_1 pays list, each further group 10 % less). Regulatory fees are
 * passed through, so their actual and receivable values are equal.
 *  - US stock: USD 0.0049/share, min 0.99, max 1 % of value; sells add SEC fee (0.0000278 × value) and FINRA TAF
 *    (0.000166/share, max 8.30).
 *  - US option: USD 0.65/contract; OCC clearing 0.02/contract; sells add the SEC fee.
 *  - HK: 0.03 % min HKD 3; stamp duty 0.1 % rounded up to HKD 1, SFC levy 0.0027 %, trading fee 0.00565 %.
 *  - CN (Connect): 0.03 % min CNH 5; handling fee 0.00341 %, stamp duty 0.05 % on sells.
 */
export interface FeeLine {
  type: string;
  actual_value: string;
  receivable_value: string;
}
export interface Charges {
  commission: Decimal;
  receivableCommission: Decimal;
  fees: FeeLine[];
  feeTotal: Decimal;
}

const c2 = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

export function discountOf(commissionCode: string | null | undefined): Decimal {
  const n = Number(/(\d+)$/.exec(commissionCode ?? "")?.[1] ?? 1);
  return new Decimal(1).minus(new Decimal(Math.min(Math.max(n, 1), 5) - 1).times("0.1"));
}

export function charges(
  p: { market: string; instrumentType: string; side: string; quantity: Decimal; value: Decimal; contracts?: Decimal },
  commissionCode: string | null | undefined,
): Charges {
  const fees: [string, Decimal][] = [];
  const selling = p.side !== "BUY";
  let list: Decimal;
  if (p.instrumentType === "OPTION") {
    const contracts = p.contracts ?? p.quantity;
    list = contracts.times("0.65");
    fees.push(["OCC_CLEARING_FEE", contracts.times("0.02")]);
    if (selling) fees.push(["SEC_FEE", Decimal.max(p.value.times("0.0000278"), "0.01")]);
  } else if (p.market === "US") {
    list = Decimal.min(Decimal.max(p.quantity.times("0.0049"), "0.99"), p.value.times("0.01"));
    if (selling) {
      fees.push(["SEC_FEE", Decimal.max(p.value.times("0.0000278"), "0.01")]);
      fees.push(["FINRA_TAF", Decimal.min(p.quantity.times("0.000166"), "8.30")]);
    }
  } else if (p.market === "HK") {
    list = Decimal.max(p.value.times("0.0003"), 3);
    fees.push(
      ["STAMP_DUTY", p.value.times("0.001").ceil()],
      ["SFC_LEVY", p.value.times("0.000027")],
      ["TRADING_FEE", p.value.times("0.0000565")],
    );
  } else {
    list = Decimal.max(p.value.times("0.0003"), 5);
    fees.push(["HANDLING_FEE", p.value.times("0.0000341")]);
    if (selling) fees.push(["STAMP_DUTY", p.value.times("0.0005")]);
  }
  const lines = fees.map(([type, v]) => ({ type, actual_value: c2(v).toFixed(2), receivable_value: c2(v).toFixed(2) }));
  return {
    commission: c2(list.times(discountOf(commissionCode))),
    receivableCommission: c2(list),
    fees: lines,
    feeTotal: lines.reduce((s, l) => s.plus(l.actual_value), new Decimal(0)),
  };
}

/** Sums fee lines of several executions by type. */
export function addFees(a: FeeLine[], b: FeeLine[]): FeeLine[] {
  const m = new Map<string, [Decimal, Decimal]>();
  for (const l of [...a, ...b]) {
    const [x, y] = m.get(l.type) ?? [new Decimal(0), new Decimal(0)];
    m.set(l.type, [x.plus(l.actual_value), y.plus(l.receivable_value)]);
  }
  return [...m].map(([type, [x, y]]) => ({ type, actual_value: x.toFixed(2), receivable_value: y.toFixed(2) }));
}
