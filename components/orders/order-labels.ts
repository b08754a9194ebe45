import type { Tone } from "@/components/ui/badge";

/** How order enums look: known values coloured, anything else shown raw by EnumBadge. */
export const ORDER_STATUS_TONES: Record<string, Tone> = {
  PENDING: "slate",
  SUBMITTED: "blue",
  PARTIAL_FILLED: "amber",
  FILLED: "green",
  CANCELLED: "slate",
  FAILED: "red",
};
export const ORDER_STATUS_LABELS: Record<string, string> = {
  PENDING: "Pending",
  SUBMITTED: "Working",
  PARTIAL_FILLED: "Partly filled",
  FILLED: "Filled",
  CANCELLED: "Cancelled",
  FAILED: "Failed",
};
export const SIDE_TONES: Record<string, Tone> = { BUY: "green", SELL: "red", SHORT: "amber" };
