import { describe, expect, it } from "vitest";
import type { Role } from "@/lib/auth/permissions";
import { listAudit } from "@/server/audit/list";
import type { Staff } from "@/server/auth/guard";
import { updateStaff } from "@/server/auth/staff";
import { createAccessKey, revokeAccessKey } from "@/server/cli-auth/keys";
import { authenticateCliRequest, cliLogin } from "@/server/cli-auth/sessions";
import { TIMESTAMP_TOLERANCE_MS, verifySignedRequest } from "@/server/cli-auth/verify";
import { BODY_LIMIT_BYTES } from "@/server/http/body";
import { channelCaller } from "@/server/tools/http";
import { withAppDb } from "../helpers/app-db";
import { CHUNK, countedBody, streamedPost } from "../helpers/counted-body";
import { newStaff } from "../helpers/staff";
import { cliRequest, newNonce, type CliRequestOptions } from "../helpers/cli-requests";

/** The desk's verification of a signed command-line request: each refusal, and what it keeps (nonces in PostgreSQL). */
const db = withAppDb();

const person = (role: Role = "support") => newStaff(db(), role, "verify.test");

async function keyOf(staff: Staff) {
  return createAccessKey(db(), staff, { name: `laptop of ${staff.email}`, access: "read" });
}

const URL_ = "http://desk.test/api/skills/find-orders?symbol=AAPL&view=open";
const verify = async (o: Omit<CliRequestOptions, "url"> & { url?: string }, now?: Date) => {
  const request = cliRequest({ url: URL_, body: { symbol: "AAPL" }, ...o });
  return verifySignedRequest(request, new Uint8Array(await request.clone().arrayBuffer()), { db: db(), now });
};
const nonceRows = async (keyId: string) =>
  (await db().engine.query<{ nonce: string }>("SELECT nonce FROM brokerdesk.cli_request_nonces WHERE key_id = $1", [keyId])).rows;

describe("verifying a signed request", () => {
  it("accepts a well-signed request and answers its key and owner as they are now", async () => {
    const staff = await person("operations");
    const key = await keyOf(staff);
    const result = await verify({ key });
    expect(result).toMatchObject({ ok: true, key: { id: key.id, scopes: ["read"], staff: { id: staff.id, role: "operations" } } });
  });

  it("refuses an unknown key, a revoked key and a key whose owner is disabled: UNKNOWN_KEY", async () => {
    const staff = await person();
    const key = await keyOf(staff);
    expect(await verify({ key: { id: "bdak_AAAAAAAAAAAAAAAAAAAA", secret: key.secret } })).toMatchObject({
      status: 401,
      error: "UNKNOWN_KEY",
    });
    expect(await verify({ key: { id: "not-a-key", secret: key.secret } })).toMatchObject({ status: 401, error: "UNKNOWN_KEY" });
    expect(await verify({ key, omit: ["x-brokerdesk-key"] })).toMatchObject({ error: "UNKNOWN_KEY" });

    await updateStaff(db(), staff.id, { disabled: true });
    expect(await verify({ key })).toMatchObject({ status: 401, error: "UNKNOWN_KEY" });
    await updateStaff(db(), staff.id, { disabled: false });
    expect(await verify({ key })).toMatchObject({ ok: true });

    await revokeAccessKey(db(), staff, key.id);
    expect(await verify({ key })).toMatchObject({ status: 401, error: "UNKNOWN_KEY" });
  });

  it("refuses a key whose sealed secret no longer opens (AUTH_SECRET changed) as UNKNOWN_KEY, without failing", async () => {
    const key = await keyOf(await person());
    const other = await keyOf(await person());
    // Another key's sealed secret on this key's row: sealed for another row, it does not open here.
    await db().engine.query(
      "UPDATE brokerdesk.cli_access_keys SET secret_sealed = (SELECT secret_sealed FROM brokerdesk.cli_access_keys WHERE id = $2) WHERE id = $1",
      [key.id, other.id],
    );
    expect(await verify({ key })).toMatchObject({ status: 401, error: "UNKNOWN_KEY" });
    expect(await verify({ key: { id: key.id, secret: other.secret } })).toMatchObject({ error: "UNKNOWN_KEY" });
  });

  it("refuses a signature by another secret, or over another body, path or query: BAD_SIGNATURE", async () => {
    const key = await keyOf(await person());
    const other = await keyOf(await person());
    expect(await verify({ key, signSecret: other.secret })).toMatchObject({ status: 401, error: "BAD_SIGNATURE" });
    expect(await verify({ key, signBody: JSON.stringify({ symbol: "MSFT" }) })).toMatchObject({ error: "BAD_SIGNATURE" });
    expect(await verify({ key, signPath: "/api/skills/cancel-order" })).toMatchObject({ error: "BAD_SIGNATURE" });
    // The query is signed: a request whose query was changed on the way does not verify.
    const request = cliRequest({ key, url: URL_ });
    const moved = new Request(URL_.replace("view=open", "view=failed"), { headers: request.headers });
    expect(await verifySignedRequest(moved, new Uint8Array(), { db: db() })).toMatchObject({ error: "BAD_SIGNATURE" });
    // Malformed or missing parts.
    expect(await verify({ key, omit: ["x-brokerdesk-signature"] })).toMatchObject({ error: "BAD_SIGNATURE" });
    expect(await verify({ key, nonce: "short" })).toMatchObject({ error: "BAD_SIGNATURE" });
  });

  it("refuses a timestamp more than five minutes from the desk's clock, either way: STALE_TIMESTAMP", async () => {
    const key = await keyOf(await person());
    const now = new Date("2030-01-01T12:00:00Z");
    const at = (ms: number) => new Date(now.getTime() + ms);
    expect(await verify({ key, now: at(-TIMESTAMP_TOLERANCE_MS - 1) }, now)).toMatchObject({ status: 401, error: "STALE_TIMESTAMP" });
    expect(await verify({ key, now: at(TIMESTAMP_TOLERANCE_MS + 1) }, now)).toMatchObject({ status: 401, error: "STALE_TIMESTAMP" });
    expect(await verify({ key, now: at(-TIMESTAMP_TOLERANCE_MS + 1000) }, now)).toMatchObject({ ok: true });
    expect(await verify({ key, now: at(TIMESTAMP_TOLERANCE_MS - 1000) }, now)).toMatchObject({ ok: true });
  });

  it("refuses a nonce the key used before, even in another request: REPLAYED_NONCE; another key may use it", async () => {
    const key = await keyOf(await person());
    const other = await keyOf(await person());
    const nonce = newNonce();
    const request = cliRequest({ key, url: URL_, nonce });
    const again = request.clone();
    expect(await verifySignedRequest(request, new Uint8Array(), { db: db() })).toMatchObject({ ok: true });
    expect(await verifySignedRequest(again, new Uint8Array(), { db: db() })).toMatchObject({ status: 401, error: "REPLAYED_NONCE" });
    expect(await verify({ key, nonce, url: `${URL_}&cursor=x` })).toMatchObject({ error: "REPLAYED_NONCE" });
    expect(await verify({ key: other, nonce })).toMatchObject({ ok: true });
  });

  it("keeps a nonce while its request could be accepted, and removes the key's expired ones at its next request", async () => {
    const staff = await person();
    const key = await keyOf(staff);
    const t0 = new Date("2030-02-01T09:00:00Z");
    const old = newNonce();
    expect(await verify({ key, nonce: old, now: t0 }, t0)).toMatchObject({ ok: true });
    expect((await nonceRows(key.id)).map((r) => r.nonce)).toEqual([old]);
    // Six minutes on, the old request is stale anyway: its nonce goes with the key's next request.
    const t1 = new Date(t0.getTime() + 6 * 60_000);
    const fresh = newNonce();
    expect(await verify({ key, nonce: fresh, now: t1 }, t1)).toMatchObject({ ok: true });
    expect((await nonceRows(key.id)).map((r) => r.nonce)).toEqual([fresh]);
    // Revoking a key forgets its nonces.
    await revokeAccessKey(db(), staff, key.id);
    expect(await nonceRows(key.id)).toEqual([]);
  });

  it("counts a key's requests in its minute: past the limit RATE_LIMITED with the seconds left", async () => {
    const key = await keyOf(await person());
    const now = new Date("2030-03-01T10:00:00Z");
    const request = () => cliRequest({ key, url: URL_, now });
    for (let i = 0; i < 3; i++)
      expect(await verifySignedRequest(request(), new Uint8Array(), { db: db(), now, limitPerMinute: 3 })).toMatchObject({ ok: true });
    expect(await verifySignedRequest(request(), new Uint8Array(), { db: db(), now, limitPerMinute: 3 })).toMatchObject({
      status: 429,
      error: "RATE_LIMITED",
      retryAfterSeconds: 60,
    });
  });
});

/** A body far over the cap (or of `total` bytes), that fails a read past the cap and two chunks (a copy's tee may pull one ahead). */
const hugeBody = (total = 64 * BODY_LIMIT_BYTES) => countedBody({ total, failPast: BODY_LIMIT_BYTES + 2 * CHUNK });

/** A signed request (headers of `cliRequest`, which signed another body) whose body is `body`, with the extra headers. */
function withBody(key: { id: string; secret: string }, body: ReadableStream<Uint8Array>, url = URL_, headers: Record<string, string> = {}) {
  const all = new Headers(cliRequest({ key, url, body: { symbol: "AAPL" } }).headers);
  for (const [k, v] of Object.entries(headers)) all.set(k, v);
  return streamedPost(url, all, body);
}

describe("the body of a signed request", () => {
  it("is not read at all before the key is known: an unknown key or a key id of the wrong shape is refused unread", async () => {
    const key = await keyOf(await person());
    for (const id of ["bdak_AAAAAAAAAAAAAAAAAAAA", "x"]) {
      const { stream, seen } = hugeBody();
      const result = await authenticateCliRequest(withBody({ id, secret: key.secret }, stream), { db: db() });
      expect(result).toMatchObject({ ok: false, status: 401, error: "UNKNOWN_KEY" });
      expect(seen.pulled).toBe(0);
    }
  });

  it("of a known key, is refused as 413 REQUEST_TOO_LARGE by its Content-Length unread, or once more than the cap has come", async () => {
    const key = await keyOf(await person());
    const declared = hugeBody();
    const byLength = await authenticateCliRequest(withBody(key, declared.stream, URL_, { "content-length": "10000000" }), { db: db() });
    expect(byLength).toMatchObject({ ok: false, status: 413, error: "REQUEST_TOO_LARGE", key: { id: key.id } });
    expect(declared.seen.pulled).toBe(0);

    // Sent without a length (chunked): read up to the cap, no further.
    const streamed = hugeBody();
    expect(await authenticateCliRequest(withBody(key, streamed.stream), { db: db() })).toMatchObject({
      status: 413,
      error: "REQUEST_TOO_LARGE",
    });
    expect(streamed.seen.pulled).toBeGreaterThan(BODY_LIMIT_BYTES);
    expect(streamed.seen.pulled).toBeLessThanOrEqual(BODY_LIMIT_BYTES + 2 * CHUNK);

    // A body of exactly the cap is read whole, then checked by its signature (this one signed another body).
    const atCap = hugeBody(BODY_LIMIT_BYTES);
    expect(await authenticateCliRequest(withBody(key, atCap.stream), { db: db() })).toMatchObject({ status: 401, error: "BAD_SIGNATURE" });
    expect(atCap.seen.pulled).toBe(BODY_LIMIT_BYTES);
  });

  it("answers 413 JSON to the channels' caller (POST /api/mcp, /api/skills/…) and to the login, which audits it", async () => {
    const staff = await person();
    const key = await keyOf(staff);
    const mcp = hugeBody();
    const res = await channelCaller(withBody(key, mcp.stream, "http://desk.test/api/mcp"), "mcp", "/api/mcp");
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(413);
    expect(await (res as Response).json()).toEqual({
      error: "REQUEST_TOO_LARGE",
      message: `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`,
    });
    expect(mcp.seen.pulled).toBeLessThanOrEqual(BODY_LIMIT_BYTES + 2 * CHUNK);

    const login = hugeBody();
    expect(await cliLogin(withBody(key, login.stream, "http://desk.test/api/cli/login"), { db: db() })).toMatchObject({
      status: 413,
      error: "REQUEST_TOO_LARGE",
    });
    const [entry] = (await listAudit(db().engine, { action: "cli.login", actor: staff.email })).rows;
    expect(entry).toMatchObject({ outcome: "failure", errorCode: "REQUEST_TOO_LARGE", tokenId: key.id, channel: "cli" });
  });
});
