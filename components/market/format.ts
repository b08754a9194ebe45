import { formatMoney } from "@/lib/money";

/** A price as the market quotes it: two decimals, three below one (the upstream's tick size there). */
export const formatPrice = (v: string | undefined) => formatMoney(v, undefined, v && /^-?0\./.test(v) ? 3 : 2);

/** A ratio (0.0123) as a signed percentage (+1.23%). */
export function formatRatio(v: string | undefined): string {
  if (!v) return "—";
  const n = Number(v) * 100;
  if (!Number.isFinite(n)) return v;
  return `${n > 0 ? "+" : ""}${n.toFixed(2)}%`;
}

/** A signed change (+1.25 / -0.40). */
export const formatChange = (v: string | undefined) => (v ? `${v.startsWith("-") || Number(v) === 0 ? "" : "+"}${formatPrice(v)}` : "—");
