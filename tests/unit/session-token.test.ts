import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_COOKIE, SESSION_MAX_AGE_S } from "@/auth.config";
import proxy from "@/proxy";
import { openSessionToken, renewSessionToken, RENEW_AFTER_S } from "@/server/auth/session-token";

/**
 * The session cookie's token (server/auth/session-token.ts): opened as Auth.js seals it, kept no longer than it lasts,
 * and renewed by the proxy on the pages opened at most once a minute, so a session lasts SESSION_MAX_AGE_HOURS from
 * the last page opened.
 */
const T0 = new Date("2026-12-03T09:00:00Z");
let n = 0;
/** A token as Auth.js seals one at sign-in, at `at` (each one different: a new staff id). */
async function sealed(at: Date, secret = process.env.AUTH_SECRET!) {
  vi.useFakeTimers({ toFake: ["Date"], now: at });
  const sub = `staff-${++n}`;
  const token = await encode({ token: { sub, signedInAt: at.getTime() }, secret, salt: SESSION_COOKIE, maxAge: SESSION_MAX_AGE_S });
  return { sub, token };
}
const page = (token: string) =>
  proxy(new NextRequest("http://internal:3000/orders", { headers: { host: "desk.test", cookie: `${SESSION_COOKIE}=${token}` } }));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe("the session token", () => {
  it("opens as Auth.js sealed it; a token altered, sealed with another secret or under another name does not", async () => {
    const { sub, token } = await sealed(T0);
    expect(await openSessionToken(token)).toMatchObject({ sub, signedInAt: T0.getTime() });
    const [head, key, iv, body, tag] = token.split(".");
    const flip = (s: string) => (s[5] === "A" ? `${s.slice(0, 5)}B${s.slice(6)}` : `${s.slice(0, 5)}A${s.slice(6)}`);
    expect(await openSessionToken([head, key, iv, flip(body), tag].join("."))).toBeNull();
    expect(await openSessionToken((await sealed(T0, "another-secret-0123456789abcdef0123")).token)).toBeNull();
    const otherSalt = await encode({ token: { sub: "x" }, secret: process.env.AUTH_SECRET!, salt: "other.session" });
    expect(await openSessionToken(otherSalt)).toBeNull();
    expect(await openSessionToken(undefined)).toBeNull();
    expect(await openSessionToken("not-a-token")).toBeNull();
  });

  it("is not kept open past its expiry, however often it was opened before", async () => {
    const { token } = await sealed(T0);
    expect(await openSessionToken(token)).not.toBeNull();
    vi.setSystemTime(T0.getTime() + SESSION_MAX_AGE_S * 1000 - 1000);
    expect(await openSessionToken(token)).not.toBeNull();
    vi.setSystemTime(T0.getTime() + (SESSION_MAX_AGE_S + 16) * 1000);
    expect(await openSessionToken(token)).toBeNull();
  });

  it("opens with AUTH_SECRET while a rotation's new secret seals the renewed one", async () => {
    const { sub, token } = await sealed(T0);
    vi.stubEnv("AUTH_SECRET_1", "the-rotations-new-secret-0123456789abcdef");
    vi.setSystemTime(T0.getTime() + RENEW_AFTER_S * 1000);
    const claims = await openSessionToken(token);
    expect(claims).toMatchObject({ sub });
    const renewed = (await renewSessionToken(claims!))!;
    vi.stubEnv("AUTH_SECRET", "");
    expect(await openSessionToken(renewed)).toMatchObject({ sub });
  });
});

describe("the proxy's renewal of the session", () => {
  it("leaves a cookie under a minute old alone, renews an older one with the same session and a later expiry", async () => {
    const { sub, token } = await sealed(T0);
    vi.setSystemTime(T0.getTime() + (RENEW_AFTER_S - 1) * 1000);
    const fresh = await page(token);
    expect(fresh.headers.get("location")).toBeNull();
    expect(fresh.headers.get("set-cookie")).toBeNull();

    vi.setSystemTime(T0.getTime() + RENEW_AFTER_S * 1000);
    const renewed = await page(token);
    const cookie = renewed.headers.get("set-cookie")!;
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE.replace(".", "\\.")}=`));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=lax/i);
    expect(cookie).toMatch(new RegExp(`Max-Age=${SESSION_MAX_AGE_S}`));
    const claims = await openSessionToken(cookie.split(";")[0].slice(SESSION_COOKIE.length + 1));
    expect(claims).toMatchObject({
      sub,
      signedInAt: T0.getTime(),
      exp: Math.floor(T0.getTime() / 1000) + RENEW_AFTER_S + SESSION_MAX_AGE_S,
    });
  });

  it("sends a visitor whose cookie does not open to sign-in", async () => {
    const { token } = await sealed(T0);
    vi.setSystemTime(T0.getTime() + (SESSION_MAX_AGE_S + 16) * 1000);
    for (const cookie of [token, "garbage"]) {
      const answer = await page(cookie);
      expect(answer.status).toBe(307);
      expect(answer.headers.get("location")).toBe("http://desk.test/sign-in?callbackUrl=%2Forders");
    }
  });
});
