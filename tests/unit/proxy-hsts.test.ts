import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "@/auth.config";
import proxy from "@/proxy";

/**
 * The proxy's security headers mark HTTPS (HSTS) by the scheme the client used: the first X-Forwarded-Proto value,
 * when it is http or https. On a page it lets through: a signed-in staff member's.
 */
const hsts = async (proto?: string) => {
  const jwt = await encode({ token: { sub: "s1", signedInAt: Date.now() }, secret: process.env.AUTH_SECRET!, salt: SESSION_COOKIE });
  const headers = { host: "desk.test", cookie: `${SESSION_COOKIE}=${jwt}`, ...(proto === undefined ? {} : { "x-forwarded-proto": proto }) };
  const response = await proxy(new NextRequest("http://internal:3000/accounts", { headers }));
  expect(response.headers.get("content-security-policy")).toMatch(/nonce-/);
  return response.headers.get("strict-transport-security");
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
