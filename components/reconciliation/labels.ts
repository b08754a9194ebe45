import { listResource } from "@/components/data-table/list-resource";
import type { Tone } from "@/components/ui/badge";
import { formatMoney, formatQuantity } from "@/lib/money";
import { breakListParams, type BreakKind, type BreakListParams, type BreakRow, type BreakStatus } from "@/lib/schemas/reconciliation";

export const BREAK_STATUS_TONES: Record<BreakStatus, Tone> = { open: "amber", closed: "green" };
export const BREAK_KIND_TONES: Record<BreakKind, Tone> = { cash: "red", position: "red", movement: "amber" };

/** Query keys under the live root "breaks": a `reconciliation` notice (a run finished, a break changed) refetches the list. */
export const breakList = listResource<BreakListParams>("breaks", "/api/reconciliation/breaks", breakListParams);
/** The runs panel's key, under the live root "reconciliation-runs". */
export const RUNS_KEY = ["reconciliation-runs"];

/** A break's figure in its unit: cash with its currency, a position as a quantity of its symbol. */
export function breakFigure(b: BreakRow, value: string | null): string {
  if (value === null) return "—";
  return b.kind === "cash" ? formatMoney(value, b.currency ?? undefined) : formatQuantity(value);
}
