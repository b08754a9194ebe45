import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as subscribePost } from "@/app/api/status/subscribe/route";
import { POST as confirmPost } from "@/app/api/status/confirm/route";
import { POST as unsubscribePost } from "@/app/api/status/unsubscribe/route";
import UnsubscribePage from "@/app/(public)/status/unsubscribe/page";
import { composeMail } from "@/server/status-mail/compose";
import { mailKey } from "@/server/status-mail/config";
import type { ClaimedMail } from "@/server/status-mail/queries";
import { SUBSCRIBE_LIMITS } from "@/server/status-mail/subscriptions";
import { signMailToken, verifyMailToken, TOKEN_LIFETIME_MS } from "@/server/status-mail/tokens";
import { FORM_LIMIT_BYTES } from "@/server/http/body";
import { withAppDb } from "../helpers/app-db";
import { CHUNK, countedBody, streamedPost } from "../helpers/counted-body";
import { SUPPORT } from "../helpers/session-guard";

/**
 * The subscribe route and the mails' links, as a browser and a mail client call them (no session; the status page
 * public, STATUS_PUBLIC, so a signed-out visitor has the form): one answer for known and unknown addresses, the rate
 * limits, confirmation, unsubscribe by the page's button and by RFC 8058 one-click, expired and tampered tokens
 * refused, bodies over the cap refused; without STATUS_PUBLIC, subscribing as the page: staff only.
 */
process.env.AUTH_SECRET = "links-test-secret-0123456789";
process.env.STATUS_PUBLIC = "true";
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
const db = withAppDb();
const key = () => mailKey()!;

const json = (body: unknown, ip = "198.51.100.7") =>
  new Request("http://desk.test/api/status/subscribe", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
const form = (url: string, fields: Record<string, string>) =>
  new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

async function subscription(email: string) {
  const { rows } = await db().engine.query<{ id: string; confirmed: boolean; ended: boolean; modules: string[]; nonce: string | null }>(
    `SELECT id, confirmed_at IS NOT NULL AS confirmed, unsubscribed_at IS NOT NULL AS ended, modules, confirm_nonce AS nonce
     FROM brokerdesk.status_subscriptions WHERE email = $1`,
    [email],
  );
  return rows[0]!;
}

describe("status mail links and the subscribe route", () => {
  beforeEach(async () => {
    await db().engine.query("TRUNCATE brokerdesk.status_mail_outbox, brokerdesk.status_subscriptions, brokerdesk.status_mail_limits");
  });

  it("answers the same for an unknown and a confirmed address, and queues a confirmation for each", async () => {
    const first = await subscribePost(json({ email: "Known@Desk.test", modules: ["order"] }));
    const s = await subscription("known@desk.test");
    const confirm = signMailToken(key(), { purpose: "confirm", subscriptionId: s.id, nonce: s.nonce! }, new Date());
    expect((await confirmPost(form(`http://desk.test/api/status/confirm?token=${confirm}`, {}))).status).toBe(200);
    expect((await subscription("known@desk.test")).confirmed).toBe(true);

    const known = await subscribePost(json({ email: "known@desk.test", modules: ["order", "funding"] }));
    const unknown = await subscribePost(json({ email: "nobody@desk.test", modules: ["order"] }));
    expect([first.status, known.status, unknown.status]).toEqual([202, 202, 202]);
    const bodies = await Promise.all([first, known, unknown].map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    // The known address keeps what it confirmed until the new choice is confirmed too.
    expect((await subscription("known@desk.test")).modules).toEqual(["order"]);
    const { rows } = await db().engine.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM brokerdesk.status_mail_outbox WHERE kind = 'confirm'",
    );
    expect(rows[0]!.n).toBe(3);
  });

  it("refuses bad input with 400", async () => {
    expect((await subscribePost(json({ email: "not an address", modules: ["order"] }))).status).toBe(400);
    expect((await subscribePost(json({ email: "a@desk.test", modules: ["nope"] }))).status).toBe(400);
    expect((await subscribePost(json({ email: "a@desk.test", modules: [] }))).status).toBe(400);
  });

  it("limits requests per address and per client", async () => {
    for (let i = 0; i < SUBSCRIBE_LIMITS.perAddress; i++) {
      expect((await subscribePost(json({ email: "same@desk.test", modules: ["order"] }, `203.0.113.${i}`))).status).toBe(202);
    }
    const limited = await subscribePost(json({ email: "same@desk.test", modules: ["order"] }, "203.0.113.200"));
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toBe("RATE_LIMITED");

    process.env.TRUSTED_PROXY_HOPS = "1";
    try {
      for (let i = 0; i < SUBSCRIBE_LIMITS.perClient; i++) {
        expect((await subscribePost(json({ email: `c${i}@desk.test`, modules: ["order"] }, "192.0.2.1"))).status).toBe(202);
      }
      expect((await subscribePost(json({ email: "c-last@desk.test", modules: ["order"] }, "192.0.2.1"))).status).toBe(429);
      // Another client is not held by that one's window.
      expect((await subscribePost(json({ email: "c-other@desk.test", modules: ["order"] }, "192.0.2.2"))).status).toBe(202);
    } finally {
      delete process.env.TRUSTED_PROXY_HOPS;
    }
  });

  it("confirms by the page's button once; a superseded, tampered or expired confirmation is refused", async () => {
    await subscribePost(json({ email: "c@desk.test", modules: ["order"] }));
    const old = await subscription("c@desk.test");
    const oldToken = signMailToken(key(), { purpose: "confirm", subscriptionId: old.id, nonce: old.nonce! }, new Date());
    await subscribePost(json({ email: "c@desk.test", modules: ["funding"] }));
    const s = await subscription("c@desk.test");
    const token = signMailToken(key(), { purpose: "confirm", subscriptionId: s.id, nonce: s.nonce! }, new Date());

    const [payload, signature] = token.split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), e: 9_999_999_999 })).toString(
      "base64url",
    );
    const tampered = `${forged}.${signature}`;
    const page = (t: string) => confirmPost(form(`http://desk.test/api/status/confirm?token=${t}`, { from: "page" }));
    expect((await page(tampered)).headers.get("location")).toBe("/status/confirm?state=invalid");
    expect((await page(oldToken)).headers.get("location")).toBe("/status/confirm?state=invalid");
    expect((await subscription("c@desk.test")).confirmed).toBe(false);

    const done = await page(token);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/status/confirm?state=done");
    expect(await subscription("c@desk.test")).toMatchObject({ confirmed: true, modules: ["funding"] });
    expect((await page(token)).headers.get("location")).toBe("/status/confirm?state=invalid"); // used

    const later = new Date(Date.now() + TOKEN_LIFETIME_MS.confirm + 1_000);
    expect(verifyMailToken(key(), token, "confirm", new Date())).toBeTruthy();
    expect(verifyMailToken(key(), token, "confirm", later)).toBeUndefined();
    expect(verifyMailToken(key(), token, "unsubscribe", new Date())).toBeUndefined(); // another purpose
  });

  it("unsubscribes by one-click POST without a session; the page's GET changes nothing; expired and tampered links are refused", async () => {
    await db().engine.query(
      `INSERT INTO brokerdesk.status_subscriptions (email, modules, confirmed_at) VALUES ('u@desk.test', '{order}', now())`,
    );
    const s = await subscription("u@desk.test");
    const mail: ClaimedMail = {
      id: "7",
      kind: "opened",
      recipient: "u@desk.test",
      attempts: 1,
      subscriptionId: s.id,
      active: true,
      confirmNonce: null,
      pendingModules: null,
      incident: { module: "order", state: "outage", startedAt: new Date(), escalatedAt: null, endedAt: null },
    };
    const composed = composeMail(mail, { from: "status@desk.test", baseUrl: "http://desk.test", key: key() }, new Date());
    const oneClick = /^<(.+)>$/.exec(composed.headers["List-Unsubscribe"]!)![1]!;
    const token = new URL(oneClick).searchParams.get("token")!;

    // The page behind the mail's link offers the button, and opening it unsubscribes nobody.
    const element = await UnsubscribePage({ searchParams: Promise.resolve({ token }) });
    expect(element.props).toMatchObject({ kind: "unsubscribe", tokenValid: true });
    expect((await subscription("u@desk.test")).confirmed).toBe(true);

    const expired = signMailToken(
      key(),
      { purpose: "unsubscribe", subscriptionId: s.id },
      new Date(Date.now() - TOKEN_LIFETIME_MS.unsubscribe - 1_000),
    );
    expect(
      (await unsubscribePost(form(`http://desk.test/api/status/unsubscribe?token=${expired}`, { "List-Unsubscribe": "One-Click" }))).status,
    ).toBe(400);
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect(
      (await unsubscribePost(form(`http://desk.test/api/status/unsubscribe?token=${tampered}`, { "List-Unsubscribe": "One-Click" })))
        .status,
    ).toBe(400);
    expect((await subscription("u@desk.test")).confirmed).toBe(true);

    const response = await unsubscribePost(form(oneClick, { "List-Unsubscribe": "One-Click" }));
    expect(response.status).toBe(200);
    expect(await subscription("u@desk.test")).toMatchObject({ confirmed: false, ended: true, modules: [] });
  });

  it("answers malformed bodies and tokens without a 5xx, in the {error, message} shape or as plain text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (body) => {
        const res = await subscribePost(json(body));
        expect([400, 429]).toContain(res.status);
        const answer = (await res.json()) as { error?: unknown; message?: unknown };
        expect(typeof answer.error === "string" && typeof answer.message === "string").toBe(true);
      }),
      { seed: 29, numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 300 }), fc.boolean(), async (token, page) => {
        const url = `http://desk.test/api/status/unsubscribe?token=${encodeURIComponent(token)}`;
        const res = await (page ? confirmPost : unsubscribePost)(form(url, page ? { from: "page" } : { "List-Unsubscribe": "One-Click" }));
        expect(res.status).toBe(page ? 303 : 400);
      }),
      { seed: 29, numRuns: 60 },
    );
  });
});

describe("who may subscribe, and how much a body may carry", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    session.staff = null;
  });
  /** The route with the configuration as it is now (the configuration is read once a process). */
  const freshSubscribe = async () => {
    vi.resetModules();
    return (await import("@/app/api/status/subscribe/route")).POST;
  };

  it("without STATUS_PUBLIC, as the status page: a signed-out caller is refused 401 before the body is read; staff subscribe", async () => {
    vi.stubEnv("STATUS_PUBLIC", "false");
    const post = await freshSubscribe();
    const { stream, seen } = countedBody({ total: 200, failPast: 0 });
    const refused = await post(streamedPost("http://desk.test/api/status/subscribe", { "content-type": "application/json" }, stream));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "UNAUTHENTICATED" });
    expect(seen.pulled).toBe(0);
    expect((await db().engine.query("SELECT 1 FROM brokerdesk.status_mail_outbox")).rows).toEqual([]);

    session.staff = SUPPORT;
    expect((await post(json({ email: "staff@desk.test", modules: ["order"] }))).status).toBe(202);
  });

  it("refuses a subscribe body over FORM_LIMIT_BYTES with 413, by its Content-Length unread, else once more than the cap came", async () => {
    const url = "http://desk.test/api/status/subscribe";
    const declared = countedBody({ total: 10 * FORM_LIMIT_BYTES, failPast: 0 });
    const byLength = await subscribePost(streamedPost(url, { "content-length": String(10 * FORM_LIMIT_BYTES) }, declared.stream));
    expect(byLength.status).toBe(413);
    expect(await byLength.json()).toEqual({
      error: "REQUEST_TOO_LARGE",
      message: `The request body is larger than ${FORM_LIMIT_BYTES} bytes.`,
    });
    expect(declared.seen.pulled).toBe(0);

    const streamed = countedBody({ total: 1024 * FORM_LIMIT_BYTES, failPast: FORM_LIMIT_BYTES });
    expect((await subscribePost(streamedPost(url, {}, streamed.stream))).status).toBe(413);
    expect(streamed.seen.pulled).toBeLessThanOrEqual(FORM_LIMIT_BYTES + CHUNK);
  });

  it("refuses a link's POST body over FORM_LIMIT_BYTES with 413, the link unused", async () => {
    await subscribePost(json({ email: "big@desk.test", modules: ["order"] }));
    const s = await subscription("big@desk.test");
    const token = signMailToken(key(), { purpose: "confirm", subscriptionId: s.id, nonce: s.nonce! }, new Date());
    const url = `http://desk.test/api/status/confirm?token=${token}`;
    const { stream, seen } = countedBody({ total: 1024 * FORM_LIMIT_BYTES, failPast: FORM_LIMIT_BYTES });
    const res = await confirmPost(streamedPost(url, { "content-type": "application/x-www-form-urlencoded" }, stream));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "REQUEST_TOO_LARGE" });
    expect(seen.pulled).toBeLessThanOrEqual(FORM_LIMIT_BYTES + CHUNK);
    expect((await subscription("big@desk.test")).confirmed).toBe(false);
    expect((await confirmPost(form(url, {}))).status).toBe(200);
  });
});
