import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pageAccess } from "@/auth.config";

/**
 * The proxy's decision for a page request (auth.config.ts `pageAccess`): which paths pass without a session, and where
 * a signed-out visitor is sent (the host they used, by the scheme the client used).
 */
afterEach(() => {
  vi.unstubAllEnvs();
});

const authorized = (url: string, headers: Record<string, string> = {}, signedIn = false) =>
  pageAccess(new NextRequest(url, { headers }), signedIn);

const location = (answer: unknown) => {
  expect(answer).toBeInstanceOf(Response);
  expect((answer as Response).status).toBe(307);
  return (answer as Response).headers.get("location");
};

describe("the proxy's page access", () => {
  it("lets the RFC 9728 metadata through without a session, the bare document and each channel's below it", () => {
    for (const path of ["", "/api/mcp", "/api/skills"]) {
      expect(authorized(`http://internal:3000/.well-known/oauth-protected-resource${path}`, { host: "desk.test" })).toBe(true);
    }
    // A path that only begins like it is no metadata.
    expect(authorized("http://internal:3000/.well-known/oauth-protected-resource-x", { host: "desk.test" })).toBeInstanceOf(Response);
  });

  it("sends a signed-out visitor to sign-in on the host they used, with a relative callbackUrl; lets a session through", () => {
    expect(location(authorized("http://internal:3000/orders?view=open", { host: "desk.test:8080" }))).toBe(
      "http://desk.test:8080/sign-in?callbackUrl=%2Forders%3Fview%3Dopen",
    );
    expect(authorized("http://internal:3000/orders", { host: "desk.test" }, true)).toBe(true);
  });

  it("takes the scheme from the first X-Forwarded-Proto value, and only http or https; else the request's own", () => {
    const at = (proto: string, url = "http://internal:3000/accounts") =>
      location(authorized(url, { host: "desk.test", "x-forwarded-proto": proto }));
    expect(at("https, http")).toBe("https://desk.test/sign-in?callbackUrl=%2Faccounts");
    expect(at("HTTPS")).toBe("https://desk.test/sign-in?callbackUrl=%2Faccounts");
    expect(at("http,https")).toBe("http://desk.test/sign-in?callbackUrl=%2Faccounts");
    expect(at("javascript")).toBe("http://desk.test/sign-in?callbackUrl=%2Faccounts");
    expect(at("", "https://internal:3000/accounts")).toBe("https://desk.test/sign-in?callbackUrl=%2Faccounts");
  });

  it("with AUTH_URL, sends to the configured public origin whatever the headers say", () => {
    vi.stubEnv("AUTH_URL", "https://desk.example.com/");
    expect(location(authorized("http://internal:3000/accounts", { host: "evil.example", "x-forwarded-proto": "http" }))).toBe(
      "https://desk.example.com/sign-in?callbackUrl=%2Faccounts",
    );
  });
});
