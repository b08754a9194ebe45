import { describe, expect, it } from "vitest";
import { BROKER_ERROR_MESSAGES, brokerUserMessage } from "@/lib/broker-errors";
import { BrokerError, errorFromResponse, parseRetryAfter } from "@/server/broker/errors";

const body = (error_code: string, message: string) => JSON.stringify({ error_code, message });

describe("error mapping", () => {
  it.each([
    [401, "MISSING_APP_KEY", "auth", false],
    [401, "MISSING_SIGNATURE", "auth", false],
    [401, "MISSING_ALGORITHM", "auth", false],
    [401, "MISSING_NONCE", "auth", false],
    [401, "MISSING_TIMESTAMP", "auth", false],
    [401, "UNAUTHORIZED", "auth", false],
    [401, "INVALID_TOKEN", "auth", false],
    [401, "CLOCK_SKEW_EXCEEDED", "auth", false],
    [401, "VERSION_NOT_SUPPORTED", "auth", false],
    [417, "ILLEGAL_PARAMETER", "business", false],
    [429, "TOO_MANY_REQUESTS", "rate-limit", true],
    [500, "INTERNAL_ERROR", "upstream", true],
    [503, "SERVICE_NOT_AVAILABLE", "upstream", true],
  ] as const)("%i %s → %s, retryable=%s, with a known user message", (status, code, kind, retryable) => {
    const e = errorFromResponse({ status, bodyText: body(code, "upstream text"), requestId: "rid-1", operation: "getBalance" });
    expect(e).toBeInstanceOf(BrokerError);
    expect(e.errorCode).toBe(code);
    expect(e.status).toBe(status);
    expect(e.kind).toBe(kind);
    expect(e.retryable).toBe(retryable);
    expect(e.requestId).toBe("rid-1");
    expect(e.message).toBe("upstream text");
    expect(e.userMessage).toBe(BROKER_ERROR_MESSAGES[code]);
  });

  it("uses the upstream's own sentence for an unknown 417 business code", () => {
    const e = errorFromResponse({ status: 417, bodyText: body("OPTION_LEVEL_TOO_HIGH", "option level exceeds the master account's") });
    expect(e.userMessage).toBe("The broker rejected the request: option level exceeds the master account's");
    expect(e.retryable).toBe(false);
  });

  it("falls back on the status when the body is not the documented shape", () => {
    const e = errorFromResponse({ status: 502, bodyText: "<html>Bad gateway</html>" });
    expect(e.errorCode).toBe("INTERNAL_ERROR");
    expect(e.retryable).toBe(true);
    const r = errorFromResponse({ status: 429, bodyText: "" });
    expect(r.errorCode).toBe("TOO_MANY_REQUESTS");
    expect(errorFromResponse({ status: 401, bodyText: "{}" }).errorCode).toBe("UNAUTHORIZED");
  });

  it("maps the client's own failures", () => {
    const t = new BrokerError({ status: 0, errorCode: "TIMEOUT", message: "x" });
    expect(t.retryable).toBe(true);
    expect(t.kind).toBe("timeout");
    expect(t.userMessage).toMatch(/did not answer in time/);
    const n = new BrokerError({ status: 0, errorCode: "NETWORK_ERROR", message: "x" });
    expect(n.retryable).toBe(true);
    const nt = new BrokerError({ status: 401, errorCode: "NO_TOKEN", message: "x" });
    expect(nt.kind).toBe("token");
    expect(nt.userMessage).toMatch(/Admin → Connection/);
    expect(Object.keys(nt.toSafeJSON()).sort()).toEqual(["errorCode", "requestId", "retryable", "status", "userMessage"]);
  });

  it("unknown codes by status", () => {
    expect(brokerUserMessage(401, "SOMETHING_NEW")).toBe(BROKER_ERROR_MESSAGES.UNAUTHORIZED);
    expect(brokerUserMessage(500, "SOMETHING_NEW")).toBe(BROKER_ERROR_MESSAGES.SYSTEM_ERROR);
  });

  it("parses Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter("0.5")).toBe(500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });
});

describe("one error family", () => {
  it("a BrokerError is an AppError whose code is the upstream's, with its request id; isAppError knows another bundle's copy by its brand", async () => {
    const { AppError, isAppError } = await import("@/lib/errors");
    const { BrokerError } = await import("@/server/broker/errors");
    const e = new BrokerError({ status: 417, errorCode: "ACCOUNT_CLOSED", message: "closed", requestId: "req-9" });
    expect(e).toBeInstanceOf(AppError);
    expect(isAppError(e)).toBe(true);
    expect([e.code, e.errorCode, e.requestId, e.name]).toEqual(["ACCOUNT_CLOSED", "ACCOUNT_CLOSED", "req-9", "BrokerError"]);
    expect(isAppError(Object.assign(new Error("x"), { [Symbol.for("brokerdesk.AppError")]: true, code: "X" }))).toBe(true);
    expect(isAppError(Object.assign(new Error("x"), { code: "ECONNREFUSED", userMessage: "y" }))).toBe(false);
  });
});

describe("isBrokerError across bundles", () => {
  it("recognises a BrokerError thrown by another copy of the module (same brand, other class)", async () => {
    const { isBrokerError } = await import("@/server/broker/errors");
    const foreign = Object.assign(new Error("x"), { [Symbol.for("brokerdesk.BrokerError")]: true, errorCode: "TIMEOUT" });
    expect(isBrokerError(foreign)).toBe(true);
    expect(isBrokerError(new Error("plain"))).toBe(false);
    expect(isBrokerError({ name: "BrokerError" })).toBe(false);
  });
});
