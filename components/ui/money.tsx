import type { ReactNode } from "react";
import { decimalSign } from "@/lib/money";

const SIGN_TONE = { [-1]: "text-red-700", 0: "", 1: "text-emerald-700" } as const;

/** Signed money (P&L, net amounts): red below zero, green above, by the decimal string's sign, never a float. */
export function PnL({ value, children }: { value?: string; children: ReactNode }) {
  let tone = "";
  try {
    tone = value ? SIGN_TONE[decimalSign(value)] : "";
  } catch {
    // not a decimal: shown as it came, uncoloured
  }
  return <span className={tone}>{children}</span>;
}
