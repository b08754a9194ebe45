import type { Tone } from "@/components/ui/badge";

/** How movement statuses look: known values coloured, anything else shown raw by EnumBadge. */
export const MOVEMENT_STATUS_TONES: Record<string, Tone> = {
  SUBMITTED: "blue",
  COMPLETED: "green",
  REJECTED: "red",
  FAILED: "red",
  CANCELED: "slate",
  AWAITING_APPROVAL: "amber",
  DECLINED: "red",
  WITHDRAWN: "slate",
  EXPIRED: "slate",
};
