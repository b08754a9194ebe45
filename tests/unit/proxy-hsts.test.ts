import { NextRequest } from "next/server";
import { describe, expect, it, vi } from "vitest";

/**
 * The proxy's security headers mark HTTPS (HSTS) by the scheme the client used: the first X-Forwarded-Proto value,
 * when it is http or https. Auth.js's wrapper is left out (its decision is tests/unit/auth-config.test.ts's): the
 * proxy here is its own handler of a page it lets through.
 */
vi.mock("next-auth", () => ({ default: () => ({ auth: (handler: unknown) => handler }) }));

const hsts = async (proto?: string) => {
  const { default: proxy } = await import("@/proxy");
  const headers = { host: "desk.test", ...(proto === undefined ? {} : { "x-forwarded-proto": proto }) };
  const handler = proxy as unknown as (request: NextRequest) => Response;
  return handler(new NextRequest("http://internal:3000/accounts", { headers })).headers.get("strict-transport-security");
};

describe("the proxy's HSTS", () => {
  it("is sent when the client used HTTPS, behind one proxy or two; not over HTTP or for a value that is no scheme", async () => {
    expect(await hsts("https")).toMatch(/max-age=\d+/);
    expect(await hsts("https, http")).toMatch(/max-age=\d+/);
    expect(await hsts("http")).toBeNull();
    expect(await hsts("http, https")).toBeNull();
    expect(await hsts()).toBeNull();
  });
});
