import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EnumBadge } from "@/components/ui/enum-badge";
import { ACCOUNT_STATUSES } from "@/lib/broker-enums";
import { enumLabel, isKnownEnum, tolerantEnum } from "@/lib/enums";
import { PERMISSION_LABELS } from "@/lib/schemas/virtual-account";

describe("enumLabel", () => {
  it("shows a known value as itself, or its label", () => {
    expect(enumLabel(ACCOUNT_STATUSES, "ACTIVE")).toBe("ACTIVE");
    expect(enumLabel(PERMISSION_LABELS, "CN_STOCK_NORMAL")).toBe("China Connect");
  });

  it("shows an unknown value raw, as unknown (RAW)", () => {
    expect(enumLabel(ACCOUNT_STATUSES, "DORMANT")).toBe("unknown (DORMANT)");
    expect(enumLabel(PERMISSION_LABELS, "JP_STOCK_NORMAL")).toBe("unknown (JP_STOCK_NORMAL)");
    // a label map's inherited keys are not values
    expect(enumLabel(PERMISSION_LABELS, "toString")).toBe("unknown (toString)");
  });

  it("shows an absent value as a dash", () => {
    expect(enumLabel(ACCOUNT_STATUSES, undefined)).toBe("—");
    expect(enumLabel(ACCOUNT_STATUSES, null)).toBe("—");
    expect(enumLabel(ACCOUNT_STATUSES, "")).toBe("—");
  });

  it("goes with the tolerant parser: a new upstream value parses and is known to be unknown", () => {
    const status = tolerantEnum(ACCOUNT_STATUSES).parse("DORMANT");
    expect(isKnownEnum(ACCOUNT_STATUSES, status)).toBe(false);
    expect(isKnownEnum(ACCOUNT_STATUSES, "CLOSED")).toBe(true);
  });
});

describe("EnumBadge", () => {
  const tones = { ACTIVE: "green", CLOSED: "slate" } as const;
  const html = (value: string | undefined) => renderToStaticMarkup(createElement(EnumBadge, { value, tones }));

  it("colours a known value by its tone", () => {
    expect(html("ACTIVE")).toContain(">ACTIVE<");
    expect(html("ACTIVE")).toContain("bg-emerald-50");
  });

  it("shows an unknown value raw, in the unknown colour", () => {
    expect(html("DORMANT")).toContain(">unknown (DORMANT)<");
    expect(html("DORMANT")).toContain("bg-violet-50");
  });

  it("shows an absent value as a dash", () => {
    expect(html(undefined)).toContain(">—<");
  });
});
