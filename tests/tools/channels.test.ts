import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { roleAccess } from "../helpers/staff";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { newClientId } from "@/lib/ids";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { GET as skillsGet } from "@/app/api/skills/route";
import { POST as skillPost } from "@/app/api/skills/[name]/route";
import { approveApproval } from "@/server/approvals/actions";
import { saveRule } from "@/server/approvals/queries/rules";
import { runAction } from "@/server/action-kit/define-action";
import { listAudit } from "@/server/audit/list";
import { createStaff } from "@/server/auth/staff";
import type { Staff } from "@/server/auth/guard";
import { masterAccountId } from "@/server/sandbox/seed";
import { createToken, revokeToken } from "@/server/tokens/tokens";
import { TOOLS } from "@/server/tools/registry";
import { testEngines } from "../helpers/engines";
import { useProcessFixture, type EventsFixture } from "../events/helpers";
import { ACCOUNTS } from "../sandbox/trading-helpers";

/**
 * The assistant channels in process: the official MCP client over Streamable HTTP (its fetch calls the route
 * handler) and the skills endpoints, with real staff access tokens, against a started sandbox. The started app
 * is driven the same way by e2e/assistant-channels.spec.ts.
 */
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// No session in these calls: the token is the credential (the pages' session reader is not loaded).
vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => null }));

const ORIGIN = "http://desk.test";
let f: EventsFixture;
let n = 0;

async function staffWithToken(role: Staff["role"], access: "read" | "read_write" = "read_write") {
  const u = await createStaff(f.db, {
    email: `${role}${++n}@channels.test`,
    name: `${role} ${n}`,
    role,
    password: "a long enough password",
  });
  const staff: Staff = { id: u.id, email: u.email, name: u.name, ...roleAccess(role) };
  const token = await createToken(f.db, staff, { name: `assistant ${n}`, access, expiresInDays: "7" });
  return { staff, token };
}

async function mcpClient(secret: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
    fetch: async (url, init) => (init?.method === "POST" ? mcpPost(new Request(url, init)) : new Response(null, { status: 405 })),
  });
  const client = new Client({ name: "channels-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const skill = (name: string, secret: string, body: unknown = {}) =>
  skillPost(
    new Request(`${ORIGIN}/api/skills/${name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ name }) },
  );

/** The rule "a cash journal in USD above 1,000 needs one operator's approval", as the rules editor saves it. */
async function holdJournalsAbove1000() {
  const { staff: admin } = await staffWithToken("admin");
  const rule = {
    action: "movements.cash_journal",
    currency: "USD",
    threshold: "1000",
    approversRequired: 1,
    approverRoles: ["operations"],
  };
  await saveRule(f.db.engine, { ...rule, enabled: true } as Parameters<typeof saveRule>[1], admin.email);
}

/** A cash journal's arguments, from the master account to a margin account, in USD. */
const journal = (id: string, amount: string) => ({
  client_request_id: id,
  from_account: masterAccountId(),
  to_account: ACCOUNTS.margin,
  currency: "USD",
  amount,
});

/** How many times the sandbox received a request with this client_request_id. */
const sent = async (id: string) =>
  Number(
    (await f.db.engine.query<{ n: string }>("SELECT count(*)::text AS n FROM sandbox.requests WHERE client_request_id = $1", [id])).rows[0]
      .n,
  );

describe("assistant channels", () => {
  const fixture = useProcessFixture(testEngines()[0]);
  beforeAll(() => {
    f = fixture();
  });

  it("MCP lists every tool of the registry with its schemas and hints", async () => {
    const { token } = await staffWithToken("support", "read");
    const client = await mcpClient(token.secret);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    const cancel = tools.find((t) => t.name === "cancel_order")!;
    expect(cancel.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(cancel.inputSchema.required).toEqual(expect.arrayContaining(["orderId", "reasonCode"]));
    expect(tools.find((t) => t.name === "get_gainers_losers")!.annotations).toMatchObject({ readOnlyHint: true });
    for (const t of tools) expect([t.inputSchema.type, t.outputSchema?.type]).toEqual(["object", "object"]);
    await client.close();
  });

  it("a market tool answers what the upstream ranks, checked by the client against the output schema, and is on the record", async () => {
    const { staff, token } = await staffWithToken("support", "read");
    const client = await mcpClient(token.secret);
    const result = await client.callTool({ name: "get_gainers_losers", arguments: { direction: "DESC" } });
    expect(result.isError).toBeFalsy();
    const direct = await f.client.getGainersLosers({
      category: "US_STOCK",
      rank_type: "DAY_1",
      sort_by: "CHANGE_RATIO",
      direction: "DESC",
    });
    const rows = (result.structuredContent as { rows: { symbol: string }[] }).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.symbol)).toEqual(direct.rows.map((r) => r.symbol));
    const [entry] = (await listAudit(f.db.engine, { action: "tools.get_gainers_losers" })).rows;
    expect(entry).toMatchObject({ actorEmail: staff.email, outcome: "success", channel: "mcp", tokenId: token.id });
    expect(entry.upstreamRequestId).toBeTruthy();
    await client.close();
  });

  it("bad arguments are a tool error naming the field, audited as a failure; the call changes nothing", async () => {
    const { token } = await staffWithToken("support", "read");
    const client = await mcpClient(token.secret);
    const result = await client.callTool({
      name: "get_stock_noii_snapshot",
      arguments: { symbol: "AAPL", imbalance_action_type: "MIDDAY" },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/VALIDATION.*imbalance_action_type/);
    const [entry] = (await listAudit(f.db.engine, { action: "tools.get_stock_noii_snapshot" })).rows;
    expect(entry).toMatchObject({ outcome: "failure", errorCode: "VALIDATION", tokenId: token.id });
    await client.close();
  });

  it("support may not decide approvals: refused, and the refusal is in the audit trail with the channel and token", async () => {
    const { staff, token } = await staffWithToken("support");
    const client = await mcpClient(token.secret);
    const result = await client.callTool({ name: "approve_request", arguments: { id: "00000000-0000-4000-8000-000000000001" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("FORBIDDEN");
    const [entry] = (await listAudit(f.db.engine, { action: "approvals.approve" })).rows;
    expect(entry).toMatchObject({ actorEmail: staff.email, outcome: "denied", errorCode: "FORBIDDEN", channel: "mcp", tokenId: token.id });
    await client.close();
  });

  it("a read-only token cannot write, whatever its owner's role", async () => {
    const { token } = await staffWithToken("operations", "read");
    const res = await skill("request-cash-journal", token.secret, journal(newClientId("t"), "10.00"));
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: "INSUFFICIENT_SCOPE" });
    const [entry] = (await listAudit(f.db.engine, { action: "movements.cash_journal" })).rows;
    expect(entry).toMatchObject({ outcome: "denied", errorCode: "INSUFFICIENT_SCOPE", channel: "skills" });
  });

  it("a cash journal above a rule's threshold waits for approval and is sent once when a second person approves it", async () => {
    await holdJournalsAbove1000();
    const { token } = await staffWithToken("operations");
    const { staff: checker } = await staffWithToken("operations");
    const id = newClientId("t");
    const client = await mcpClient(token.secret);
    const args = journal(id, "2500.00");
    const held = await client.callTool({ name: "request_cash_journal", arguments: args });
    expect(held.isError).toBeFalsy();
    const { approvalId } = held.structuredContent as { status: string; approvalId: string };
    expect(held.structuredContent).toMatchObject({ status: "held" });
    // The same call again (an assistant's retry) holds nothing new.
    const again = await client.callTool({ name: "request_cash_journal", arguments: args });
    expect(again.structuredContent).toMatchObject({ status: "held", approvalId });

    expect(await sent(id)).toBe(0);
    const decided = await runAction(approveApproval, { id: approvalId }, { staff: checker, meta: {} });
    expect(decided).toMatchObject({ ok: true, data: { status: "executed" } });
    expect(await sent(id)).toBe(1);
    await client.close();
  });

  it("a second person's assistant approves one held journal and rejects another; the maker's assistant may do neither", async () => {
    await holdJournalsAbove1000();
    const maker = await mcpClient((await staffWithToken("operations")).token.secret);
    const checker = await mcpClient((await staffWithToken("operations")).token.secret);
    const hold = async () => {
      const id = newClientId("t");
      const held = await maker.callTool({ name: "request_cash_journal", arguments: journal(id, "1500.00") });
      return { id, approvalId: (held.structuredContent as { approvalId: string }).approvalId };
    };
    const [a, b] = [await hold(), await hold()];

    const waiting = async (client: Client) =>
      ((await client.callTool({ name: "list_my_approvals", arguments: {} })).structuredContent as { rows: { id: string }[] }).rows.map(
        (r) => r.id,
      );
    expect(await waiting(checker)).toEqual(expect.arrayContaining([a.approvalId, b.approvalId]));
    expect(await waiting(maker)).not.toContain(a.approvalId);
    const own = await maker.callTool({ name: "approve_request", arguments: { id: a.approvalId } });
    expect(own.isError).toBe(true);

    const approved = await checker.callTool({ name: "approve_request", arguments: { id: a.approvalId } });
    expect(approved.structuredContent).toMatchObject({ status: "executed" });
    const rejected = await checker.callTool({
      name: "reject_request",
      arguments: { id: b.approvalId, reason: "not agreed with the customer" },
    });
    expect(rejected.structuredContent).toMatchObject({ status: "rejected" });
    expect([await sent(a.id), await sent(b.id)]).toEqual([1, 0]);
    await Promise.all([maker.close(), checker.close()]);
  });

  it("skills: the listing names every skill with schemas; the spec's skills answer what their schemas say", async () => {
    const { token } = await staffWithToken("support", "read");
    const listing = await skillsGet(new Request(`${ORIGIN}/api/skills`, { headers: { authorization: `Bearer ${token.secret}` } }));
    expect(listing.status).toBe(200);
    const { skills } = (await listing.json()) as { skills: { name: string; input_schema: object; output_schema: object }[] };
    expect(skills.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        "stock-noii-bars",
        "stock-noii-snapshot",
        "stock-gainers-losers",
        "stock-most-active",
        "instrument-company-profile",
      ]),
    );
    const res = await skill("stock-most-active", token.secret, { rank_type: "VOLUME" });
    expect(res.status).toBe(200);
    expect((await res.json()).rows.length).toBeGreaterThan(0);
    expect((await skill("no-such-skill", token.secret)).status).toBe(404);
  });

  it("a revoked token gets 401 with the resource metadata MCP clients follow", async () => {
    const { staff, token } = await staffWithToken("support", "read");
    await revokeToken(f.db, staff, token.id);
    const res = await mcpPost(
      new Request(`${ORIGIN}/api/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token.secret}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/api/mcp"`);
  });

  it("a browser page of another site may not call the channels", async () => {
    const { token } = await staffWithToken("support", "read");
    const res = await skillsGet(
      new Request(`${ORIGIN}/api/skills`, {
        headers: { authorization: `Bearer ${token.secret}`, origin: "https://elsewhere.example", host: "desk.test" },
      }),
    );
    expect(res.status).toBe(403);
    const same = await skillsGet(
      new Request(`${ORIGIN}/api/skills`, { headers: { authorization: `Bearer ${token.secret}`, origin: ORIGIN, host: "desk.test" } }),
    );
    expect(same.status).toBe(200);
  });
});
