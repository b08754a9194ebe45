import { describe, expect, it } from "vitest";
import { CLIENT_ID_PATTERN, isClientId, newClientId } from "@/lib/ids";

describe("client id generator", () => {
  it("makes ≤32 chars of [A-Za-z0-9_-], unique", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const id = newClientId(i % 2 ? "ord" : undefined);
      expect(id).toMatch(CLIENT_ID_PATTERN);
      ids.add(id);
    }
    expect(ids.size).toBe(20_000);
  });

  it("sanitises and bounds the prefix", () => {
    const id = newClientId("place order!!/with-long-prefix");
    expect(id.length).toBeLessThanOrEqual(32);
    expect(id.startsWith("placeord_")).toBe(true);
    expect(isClientId(id)).toBe(true);
    expect(isClientId("a".repeat(33))).toBe(false);
    expect(isClientId("has space")).toBe(false);
  });
});
