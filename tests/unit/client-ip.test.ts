import { describe, expect, it } from "vitest";
import { clientIpFrom } from "@/server/auth/request-meta";

describe("clientIpFrom (the audit trail's client IP)", () => {
  it("with no proxy in front, the address the server itself appended, not what the client wrote", () => {
    expect(clientIpFrom("6.6.6.6, 10.0.0.7", 0)).toBe("10.0.0.7");
  });
  it("behind one trusted proxy, the address that proxy appended", () => {
    expect(clientIpFrom("6.6.6.6, 203.0.113.9, 10.0.0.2", 1)).toBe("203.0.113.9");
  });
  it("a single entry, or none", () => {
    expect(clientIpFrom("10.0.0.7", 0)).toBe("10.0.0.7");
    expect(clientIpFrom(undefined, 0)).toBeNull();
  });
});
