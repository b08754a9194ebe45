import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NONCE_PATTERN, SIGNATURE_HEADERS, sign } from "@/cli/src/signing";
import type { Skill } from "@/cli/src/skills/listing";

/**
 * A small desk for the CLI's integration tests: the contract's endpoints (login with a TOTP code, whoami, the
 * skills listing and calls, health), every request's signature verified with cli/src/signing.ts (key, timestamp
 * window, nonce replay), sessions bound to their key, read-scope keys refused writes. Each skill's answer comes
 * from a handler the test gives; `dropAfter` loses the answer of the next calls of a skill after acting on them.
 */

export type FakeKey = {
  id: string;
  secret: string;
  staff: { email: string; name: string; role: string };
  scopes: ("read" | "write")[];
  /** The authenticator's secret; absent: not enrolled. */
  totp?: Buffer;
};

export type SkillHandler = (input: Record<string, unknown>, key: FakeKey) => { status: number; body: unknown };

export type Recorded = { method: string; path: string; query: string; headers: Record<string, string>; body: string };

/** RFC 6238: HMAC-SHA1, 6 digits, 30-second steps. */
export function totp(secret: Buffer, at = Date.now(), step = 0): string {
  const counter = Math.floor(at / 30_000) + step;
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", secret).update(msg).digest();
  const offset = mac[mac.length - 1] & 0xf;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, "0");
}

export const newKey = (staff: FakeKey["staff"], scopes: FakeKey["scopes"] = ["read", "write"], enrolled = true): FakeKey => ({
  id: `bdak_${randomBytes(15).toString("base64url").slice(0, 20)}`,
  secret: `bdsk_${randomBytes(32).toString("base64url")}`,
  staff,
  scopes,
  totp: enrolled ? randomBytes(20) : undefined,
});

export type FakeDesk = {
  url: string;
  /** The keys it knows: push one to make it known. */
  keys: FakeKey[];
  requests: Recorded[];
  /** Skill calls in order: name and parsed input. */
  calls: { skill: string; input: Record<string, unknown> }[];
  handlers: Record<string, SkillHandler>;
  dropAfter(skill: string, times: number): void;
  /** Ends every session (as revoking the keys would). */
  endSessions(): void;
  close(): Promise<void>;
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

export async function startFakeDesk(keys: FakeKey[], skills: Skill[], handlers: Record<string, SkillHandler> = {}): Promise<FakeDesk> {
  const nonces = new Set<string>();
  const usedCodes = new Set<string>();
  const sessions = new Map<string, { key: FakeKey; expires: number }>();
  const drops = new Map<string, number>();
  const requests: Recorded[] = [];
  const calls: FakeDesk["calls"] = [];

  const verify = (req: IncomingMessage, url: URL, body: string): FakeKey | string => {
    const h = (name: string) => String(req.headers[name] ?? "");
    const key = keys.find((k) => k.id === h(SIGNATURE_HEADERS.key));
    if (!key) return "UNKNOWN_KEY";
    const timestamp = h(SIGNATURE_HEADERS.timestamp);
    const nonce = h(SIGNATURE_HEADERS.nonce);
    if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp)) > 5 * 60_000) return "STALE_TIMESTAMP";
    const expected = sign(key.secret, { method: req.method!, path: url.pathname, query: url.searchParams, body, timestamp, nonce });
    if (!NONCE_PATTERN.test(nonce) || expected !== h(SIGNATURE_HEADERS.signature)) return "BAD_SIGNATURE";
    if (nonces.has(`${key.id}:${nonce}`)) return "REPLAYED_NONCE";
    nonces.add(`${key.id}:${nonce}`);
    return key;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url!, "http://desk.test");
      requests.push({
        method: req.method!,
        path: url.pathname,
        query: url.search,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
      });
      if (url.pathname === "/api/health") return json(res, 200, { status: "ok", database: "fake" });
      const key = verify(req, url, body);
      if (typeof key === "string") return json(res, 401, { error: key, message: `Refused: ${key}.` });

      if (req.method === "POST" && url.pathname === "/api/cli/login") {
        if (!key.totp) return json(res, 401, { error: "NOT_ENROLLED", message: "Enrol an authenticator first." });
        const code = (JSON.parse(body || "{}") as { code?: string }).code ?? "";
        const good = [-1, 0, 1].some((step) => totp(key.totp!, Date.now(), step) === code);
        if (!good || usedCodes.has(`${key.id}:${code}`)) return json(res, 401, { error: "WRONG_CODE", message: "The code is wrong." });
        usedCodes.add(`${key.id}:${code}`);
        const session = `bdcs_${randomBytes(24).toString("base64url")}`;
        const expires = Date.now() + 12 * 3600_000;
        sessions.set(session, { key, expires });
        return json(res, 200, { session, expires_at: new Date(expires).toISOString(), staff: key.staff, scopes: key.scopes });
      }

      const bearer = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
      const session = sessions.get(bearer);
      if (!bearer) return json(res, 401, { error: "NOT_LOGGED_IN", message: "Send the session as a bearer." });
      if (!session || session.key !== key || session.expires < Date.now())
        return json(res, 401, { error: "SESSION_EXPIRED", message: "This command-line session has expired or ended." });

      if (req.method === "GET" && url.pathname === "/api/cli/whoami")
        return json(res, 200, { ...key.staff, scopes: key.scopes, expires_at: new Date(session.expires).toISOString() });
      if (req.method === "GET" && url.pathname === "/api/skills") return json(res, 200, { skills });

      const name = url.pathname.match(/^\/api\/skills\/([^/]+)$/)?.[1];
      const skill = skills.find((s) => s.name === name);
      if (req.method !== "POST" || !skill) return json(res, 404, { error: "NOT_FOUND", message: `No skill named ${name}.` });
      if (!skill.read_only && !key.scopes.includes("write"))
        return json(res, 403, { error: "INSUFFICIENT_SCOPE", message: "This access key may only read." });
      const input = JSON.parse(body || "{}") as Record<string, unknown>;
      const missing = (skill.input_schema.required ?? []).filter((p) => input[p] === undefined);
      if (missing.length)
        return json(res, 400, {
          error: "VALIDATION",
          message: "Check the input.",
          fieldErrors: Object.fromEntries(missing.map((p) => [p, ["Required"]])),
        });
      calls.push({ skill: skill.name, input });
      const answer = (handlers[skill.name] ?? (() => ({ status: 200, body: { echo: input } })))(input, key);
      const drop = drops.get(skill.name) ?? 0;
      if (drop > 0) {
        drops.set(skill.name, drop - 1);
        req.socket.destroy();
        return;
      }
      json(res, answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys,
    requests,
    calls,
    handlers,
    dropAfter: (skill, times) => drops.set(skill, times),
    endSessions: () => sessions.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
