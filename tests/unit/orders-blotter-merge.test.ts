import { describe, expect, it } from "vitest";
import { appendPage, mergeChanges, showFresh, type BlotterRows } from "@/components/orders/blotter-merge";
import type { OrderRow } from "@/lib/schemas/order-list";

/** Rows newest first: row n listed at minute n. */
const row = (n: number, o: Partial<OrderRow> = {}): OrderRow => ({
  id: String(n),
  accountId: "A1",
  accountNumber: null,
  clientOrderId: `c${n}`,
  orderId: null,
  comboType: "NORMAL",
  clientComboOrderId: null,
  symbol: "AAPL",
  market: "US",
  instrumentType: "EQUITY",
  side: "BUY",
  orderType: "LIMIT",
  timeInForce: "DAY",
  quantity: "10",
  totalCashAmount: null,
  filledQuantity: "0",
  avgFilledPrice: null,
  limitPrice: "100",
  stopPrice: null,
  status: "SUBMITTED",
  placedAt: null,
  listedAt: new Date(Date.UTC(2026, 10, 23, 0, n)).toISOString(),
  updatedAt: new Date(Date.UTC(2026, 10, 23, 0, n)).toISOString(),
  seq: n,
  submittedBy: null,
  ...o,
});
const state = (ns: number[], more = false): BlotterRows => ({ rows: ns.map((n) => row(n)), more, fresh: [], gone: new Set() });
const ids = (s: BlotterRows) => s.rows.map((r) => r.id);

describe("blotter live merge", () => {
  it("updates a row on screen in place and highlights it; the order of the list does not move", () => {
    const { state: s, changed } = mergeChanges(state([30, 20, 10]), [
      { ...row(20, { status: "FILLED", listedAt: row(35).listedAt }), matches: true },
    ]);
    expect(ids(s)).toEqual(["30", "20", "10"]);
    expect(s.rows[1].status).toBe("FILLED");
    expect(changed).toEqual(["20"]);
    expect(s.fresh).toEqual([]);
  });

  it("holds new rows back until Show, then puts them in their place; a row that stops matching is marked", () => {
    const first = mergeChanges(state([30, 20, 10]), [
      { ...row(40), matches: true },
      { ...row(25), matches: true },
      { ...row(10, { status: "CANCELLED" }), matches: false },
    ]);
    expect(ids(first.state)).toEqual(["30", "20", "10"]);
    expect(first.state.fresh.map((r) => r.id)).toEqual(["40", "25"]);
    expect([...first.state.gone]).toEqual(["10"]);
    // A held row that changes again is replaced; one that stops matching is dropped.
    const second = mergeChanges(first.state, [
      { ...row(40, { status: "FILLED" }), matches: true },
      { ...row(25), matches: false },
    ]);
    expect(second.state.fresh.map((r) => [r.id, r.status])).toEqual([["40", "FILLED"]]);
    expect(ids(showFresh(second.state))).toEqual(["40", "30", "20", "10"]);
  });

  it("ignores rows beyond the last one read (found when scrolling there), and pages never repeat a row", () => {
    const s = mergeChanges(state([30, 20], true), [{ ...row(5), matches: true }]).state;
    expect(s.fresh).toEqual([]);
    const next = appendPage({ ...s, fresh: [row(15)] }, { rows: [row(20), row(15), row(5)], nextCursor: undefined });
    expect(ids(next)).toEqual(["30", "20", "15", "5"]);
    expect(next.more).toBe(false);
    expect(next.fresh).toEqual([]);
  });
});
