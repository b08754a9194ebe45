import { describe, expect, it } from "vitest";
import { clientIpFrom } from "@/server/auth/request-meta";

describe("clientIpFrom (the audit trail's client IP)", () => {
  it("with no trusted proxy, X-Forwarded-For is the client's own word: no address", () => {
    expect(clientIpFrom("6.6.6.6", 0)).toBeNull();
  });
  it("behind one trusted proxy, the address that proxy appended, not what the client wrote before it", () => {
    expect(clientIpFrom("6.6.6.6, 203.0.113.9", 1)).toBe("203.0.113.9");
  });
  it("behind two, the address the outer one appended", () => {
    expect(clientIpFrom("6.6.6.6, 203.0.113.9, 10.0.0.2", 2)).toBe("203.0.113.9");
  });
  it("fewer entries than trusted proxies, or none: no address", () => {
    expect(clientIpFrom("10.0.0.7", 2)).toBeNull();
    expect(clientIpFrom(undefined, 1)).toBeNull();
  });
});
