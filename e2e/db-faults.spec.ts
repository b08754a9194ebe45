import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "./fixtures";
import pg from "pg";
import { usStockOrder } from "../tests/helpers/orders";
import { startOwnStack } from "./own-stack";

/**
 * Issue 24's drill for the whole of `npm start` on a PostgreSQL server: the README's start command (the sandbox, the
 * event consumer and `next start`, each under the supervisor) on a database of its own, every backend of that
 * database terminated three times while customers' journals arrive and the desk is read. No process exits (the
 * supervisor says so when one does), the app answers afterwards, and the books equal the sandbox's: every event
 * stored once, every journal and every announced order with the sandbox's status. Needs the PostgreSQL server CI gives (TEST_DATABASE_URL).
 */
const server = process.env.TEST_DATABASE_URL;
const run = promisify(execFile);

test.skip(!server, "needs a PostgreSQL server (CI sets TEST_DATABASE_URL)");

test("every backend terminated three times during a burst: no process of npm start exits, the books equal the sandbox", async () => {
  // Above the sum of its waits below, so that a slow step fails on its own message.
  test.setTimeout(600_000);
  const stack = await startOwnStack(server!, { kind: "drill", script: "scripts/start.mjs" });
  const { name, admin, dataDir, sandboxPort } = stack;
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  db.on("error", () => undefined); // this reader's connection goes with the others; a new one reads the books after
  try {
    const app = `http://127.0.0.1:${stack.port}`;
    await expect
      .poll(
        () =>
          fetch(`${app}/api/health`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 180_000, intervals: [1_000] },
      )
      .toBe(200);
    await db.connect();
    const one = async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows[0] as T;
    // The consumer leads and its stream is connected before the burst (a process that cannot start is the supervisor's).
    await expect
      .poll(
        async () => (await one<{ connected: boolean } | undefined>("SELECT connected FROM brokerdesk.event_stream"))?.connected ?? false,
        {
          timeout: 120_000,
        },
      )
      .toBe(true);

    // The customers' side: signed calls straight to this stack's sandbox (the e2e helper's CLI, its token cache here).
    const sandbox = async (method: "GET" | "POST", apiPath: string, input: object) => {
      const { stdout } = await run(
        path.join("node_modules", ".bin", "tsx"),
        ["--conditions=react-server", "e2e/accounts-sandbox-cli.ts", method, apiPath, JSON.stringify(input)],
        { env: { ...process.env, SANDBOX_URL: `http://127.0.0.1:${sandboxPort}`, E2E_DATA_DIR: dataDir } },
      );
      return JSON.parse(stdout) as {
        status: number;
        body: { data: { account_id: string; belong_account_id: string; account_status: string }[] };
      };
    };
    const listed = await sandbox("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "20" } });
    expect(listed.status).toBe(200);
    const { account_id: to, belong_account_id: master } = listed.body.data.find((a) => a.account_status === "ACTIVE")!;
    const fromId = Number((await one<{ id: string }>("SELECT coalesce(max(id), 0)::text AS id FROM sandbox.events")).id);

    const tag = randomBytes(3).toString("hex");
    let n = 0;
    let answered = 0;
    let bursting = true;
    const journal = () =>
      sandbox("POST", "/broker/journals/cash-journals/create", {
        body: { from_account: master, to_account: to, client_request_id: `drill-${tag}-${(n += 1)}`, currency: "USD", amount: "1.00" },
      })
        .then(() => (answered += 1))
        .catch(() => undefined); // a request whose connection died is the sandbox's to refuse; nothing of it is kept
    // An order placed resting and cancelled: the upstream announces the cancel (it sends nothing for an acceptance).
    let orders = 0;
    const order = async () => {
      const coid = `drill-${tag}-o${(orders += 1)}`;
      const placed = await sandbox("POST", "/broker/orders/place", {
        body: { account_id: to, new_orders: [usStockOrder({ client_order_id: coid, quantity: "1", limit_price: "1.00" })] },
      }).catch(() => undefined);
      if (placed?.status === 200)
        await sandbox("POST", "/broker/orders/cancel", { body: { account_id: to, client_order_id: coid } }).catch(() => undefined);
    };
    const burst = (async () => {
      while (bursting) await Promise.all([journal(), order(), fetch(`${app}/api/health`).catch(() => undefined)]);
    })();
    // Rounds paced by the burst, not by the clock: each waits for a journal answered since the one before (a busy
    // machine makes every signed call slower), so customers' traffic spans every termination.
    const answeredSince = async (mark: number) => {
      await new Promise((r) => setTimeout(r, 1_500));
      await expect.poll(() => answered, { timeout: 90_000 }).toBeGreaterThan(mark);
    };
    const terminated: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      await answeredSince(answered);
      const { rows } = await admin.query<{ n: string }>(
        "SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [name],
      );
      terminated.push(Number(rows[0].n));
    }
    await answeredSince(answered);
    bursting = false;
    await burst;
    // Each round ended the stack's connections (app, consumer, sandbox, and this spec's reader).
    expect(terminated.every((t) => t > 0)).toBe(true);
    test.info().annotations.push({
      type: "drill",
      description: `backends terminated per round: ${terminated.join(", ")}; journals sent: ${n}; orders placed: ${orders}`,
    });
    await journal();

    await db.end().catch(() => undefined);
    const reader = new pg.Client({ connectionString: stack.databaseUrl });
    await reader.connect();
    const rows = async <T>(sql: string, params: unknown[] = []) => (await reader.query(sql, params)).rows as T[];
    try {
      // Every event the sandbox wrote since the mark is stored once; every journal has the sandbox's status.
      const storedSql = "FROM brokerdesk.upstream_events WHERE source = 'stream' AND event_id ~ '^\\d+$' AND event_id::bigint > $1";
      await expect
        .poll(
          async () => {
            const [sent] = await rows<{ n: string }>("SELECT count(*)::text AS n FROM sandbox.events WHERE id > $1", [fromId]);
            const [stored] = await rows<{ n: string }>(`SELECT count(*)::text AS n ${storedSql}`, [fromId]);
            return Number(stored.n) - Number(sent.n);
          },
          { timeout: 60_000 },
        )
        .toBe(0);
      const [stored] = await rows<{ n: string; d: string }>(
        `SELECT count(*)::text AS n, count(DISTINCT event_id)::text AS d ${storedSql}`,
        [fromId],
      );
      expect(Number(stored.n)).toBeGreaterThan(0);
      expect(stored.d).toBe(stored.n);
      await expect
        .poll(
          async () =>
            rows(
              `SELECT r.client_request_id, r.status AS sandbox, m.status AS desk FROM sandbox.requests r
                 LEFT JOIN brokerdesk.money_movements m ON m.kind = r.kind AND m.client_request_id = r.client_request_id
                WHERE r.client_request_id LIKE $1 AND m.status IS DISTINCT FROM r.status`,
              [`drill-${tag}-%`],
            ),
          { timeout: 60_000 },
        )
        .toEqual([]);
      // The orders an event told of (a cancel refused with its connection leaves its order resting, unannounced: the
      // open-orders sweep's to find), each in the books with the sandbox's status.
      await expect
        .poll(
          async () =>
            rows(
              `SELECT s.client_order_id, s.status AS sandbox, o.status AS desk FROM sandbox.orders s
                 LEFT JOIN brokerdesk.orders o USING (account_id, client_order_id)
                WHERE s.client_order_id LIKE $1 AND o.status IS DISTINCT FROM s.status
                  AND EXISTS (SELECT 1 FROM sandbox.events e WHERE e.id > $2 AND e.payload::text LIKE '%' || s.client_order_id || '%')`,
              [`drill-${tag}-o%`, fromId],
            ),
          { timeout: 60_000 },
        )
        .toEqual([]);
      const [announced] = await rows<{ n: string }>(
        `SELECT count(*)::text AS n FROM brokerdesk.orders WHERE client_order_id LIKE $1 AND status = 'CANCELLED'`,
        [`drill-${tag}-o%`],
      );
      expect(Number(announced.n)).toBeGreaterThan(0);
    } finally {
      await reader.end();
    }

    // No process exited: the supervisor says "… stopped (…); starting it again" when one does.
    expect(stack.output()).not.toMatch(/stopped \(/);
    expect(stack.command.exitCode).toBeNull();
    expect((await fetch(`${app}/api/health`)).status).toBe(200);
  } finally {
    await db.end().catch(() => undefined);
    await stack.stop(15_000);
  }
});
