import { describe, expect, it } from "vitest";
import { commissionLabel } from "@/components/accounts/labels";
import { formatDate, formatDateTime } from "@/lib/format";

describe("one format for moments, one for days, one label for commission codes", () => {
  it("formats a moment as YYYY-MM-DD HH:MM:SS UTC, whatever it is given as", () => {
    expect(formatDateTime("2026-09-28T09:37:00.000Z")).toBe("2026-09-28 09:37:00 UTC");
    expect(formatDateTime("2026-09-28T11:37:05+02:00")).toBe("2026-09-28 09:37:05 UTC");
    expect(formatDateTime(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe("2026-01-02 03:04:05 UTC");
    expect(formatDateTime("not a date")).toBe("not a date");
  });

  it("formats a day as YYYY-MM-DD, a moment's day in UTC", () => {
    expect(formatDate("2026-09-28")).toBe("2026-09-28");
    expect(formatDate("2026-09-28T23:30:00-02:00")).toBe("2026-09-29");
  });

  it("reads a commission group the same way everywhere", () => {
    expect(commissionLabel("COMMISSION_GROUP_5")).toBe("Group 5");
    expect(commissionLabel("VIP_RATE")).toBe("VIP_RATE");
    expect(commissionLabel(undefined)).toBe("—");
  });
});
