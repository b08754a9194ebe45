import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";
import pg from "pg";
import { freePort } from "../scripts/free-port";
import { readEvents } from "../tests/helpers/event-stream";
import { DEMO_PASSWORD, expectSignedIn, ROLE_EMAILS } from "./helpers";
import { startOwnStack } from "./own-stack";

/**
 * Issue 30: `npm run start:cluster` on a database of its own on the PostgreSQL server: two app instances behind
 * nginx, the event consumer and the sandbox. Signed in through the balancer, a live connection held directly on
 * instance 2 hears a journal made through instance 1 (LISTEN/NOTIFY on every instance). Then instance 1's process
 * group is killed (SIGKILL): every read through the balancer answers 200, a journal whose form was open sends once, the
 * supervisor starts instance 1 again and the balancer uses it again. Needs the PostgreSQL server CI gives
 * (TEST_DATABASE_URL).
 */
const server = process.env.TEST_DATABASE_URL;
test.skip(!server, "needs a PostgreSQL server (CI sets TEST_DATABASE_URL)");

interface LiveEvent {
  event: string;
  data: { topics?: string[]; accounts?: string[]; moreAccounts?: boolean };
}

/** A server-sent events connection read in the background: its events as they come. */
function openLive(url: string, cookie: string) {
  const controller = new AbortController();
  const events: LiveEvent[] = [];
  let status = 0;
  const reading = (async () => {
    const res = await fetch(url, { headers: { cookie }, signal: controller.signal });
    status = res.status;
    await readEvents(res.body!, ({ event, data }) => {
      if (event && data) events.push({ event, data: JSON.parse(data) as LiveEvent["data"] });
    }).done;
  })().catch(() => undefined); // aborted at the end, or the instance went away
  return {
    events,
    status: () => status,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

/** Fills and reviews the cash journal form on `page` (already open); answers the request id the review shows. */
async function reviewJournal(page: Page, amount: string): Promise<string> {
  await expect(page.getByTestId("picked-to_account")).toBeVisible();
  await page.getByLabel("Amount", { exact: true }).fill(amount);
  await page.getByRole("button", { name: "Review", exact: true }).click();
  return (await page.getByTestId("movement-review").locator("dd.font-mono").textContent())!.trim();
}

const alive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

test("two instances behind nginx: live notices cross instances; instance 1 killed, reads answer and a write sends once", async ({
  browser,
}) => {
  test.setTimeout(600_000);
  const [app1, app2] = [await freePort(), await freePort()];
  const stack = await startOwnStack(server!, {
    kind: "cluster",
    script: "scripts/cluster.mjs",
    env: { CLUSTER_APP_PORTS: `${app1},${app2}` },
  });
  const { port } = stack;
  const pgidOf = (member: string) => Number(fs.readFileSync(path.join(stack.dataDir, "cluster", `${member}.pgid`), "utf8"));
  const groups = new Set<number>();
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  const context = await browser.newContext();
  const live: ReturnType<typeof openLive>[] = [];
  try {
    // Ready: the command says so once both instances and the balancer answer (it builds first when stale).
    const deadline = Date.now() + 420_000;
    while (!stack.output().includes("Brokerdesk: http://localhost:")) {
      if (stack.command.exitCode !== null || Date.now() > deadline)
        throw new Error(`npm run start:cluster did not start:\n${stack.output()}`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
    for (const member of ["sandbox", "events", "app-1", "app-2", "nginx"]) groups.add(pgidOf(member));
    const lb = `http://127.0.0.1:${port}`;
    const direct = (p: number) => `http://127.0.0.1:${p}`;
    await db.connect();
    const one = async <T>(sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows[0] as T;
    /** How many movements of this client request id the desk's books hold. */
    const booked = async (crid: string) =>
      (await one<{ n: string }>("SELECT count(*)::text AS n FROM brokerdesk.money_movements WHERE client_request_id = $1", [crid])).n;
    const { account_id: master } = await one<{ account_id: string }>("SELECT account_id FROM sandbox.master_accounts LIMIT 1");
    // The oldest active account: the demo's first morning sends to the newest ones.
    const { account_id: to } = await one<{ account_id: string }>(
      "SELECT account_id FROM sandbox.virtual_accounts WHERE account_status = 'ACTIVE' ORDER BY created_at, account_id LIMIT 1",
    );
    const journalPath = `/movements/new/cash-journal?from=${master}&to=${to}`;

    // Whatever host name the browser used: signed out on localhost, the balancer sends it to sign-in on localhost.
    const page = await context.newPage();
    await page.goto(`http://localhost:${port}/movements`);
    await expect(page).toHaveURL(new RegExp(`^http://localhost:${port}/sign-in\\?callbackUrl=%2Fmovements`));

    // Signed in through the balancer (its session cookie is 127.0.0.1's, every port's), a live page through it.
    await page.goto(`${lb}/sign-in`);
    await page.getByLabel("Email").fill(ROLE_EMAILS.operations);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectSignedIn(page, ROLE_EMAILS.operations);
    expect(new URL(page.url()).port).toBe(String(port));
    await page.goto(`${lb}/movements`);
    await expect(page.getByRole("heading", { name: "Movements" })).toBeVisible();
    await expect(page.getByTestId("live-indicator")).toHaveText("Live");
    const cookie = (await context.cookies(lb)).map((c) => `${c.name}=${c.value}`).join("; ");

    // A live connection directly on instance 2, listening once its first status came.
    const on2 = openLive(`${direct(app2)}/api/live`, cookie);
    live.push(on2);
    await expect.poll(() => on2.events.some((e) => e.event === "status"), { timeout: 60_000 }).toBe(true);
    expect(on2.status()).toBe(200);
    /** Instance 2's connection hears a movement change naming `account` after its `since`th event; a failure says what it heard. */
    const expectHeard = async (account: string, since: number, timeout: number) => {
      const heard = () =>
        on2.events.slice(since).some(
          (e) =>
            e.event === "change" &&
            e.data.topics?.includes("movement") &&
            // A merged notice of a busy window names its first accounts and says that more changed.
            (e.data.accounts?.includes(account) || e.data.moreAccounts === true),
        );
      await expect
        .poll(heard, { timeout })
        .toBe(true)
        .catch((error: Error) => {
          const after = on2.events.slice(since);
          const changes = after.filter((e) => e.event === "change").map((e) => e.data);
          throw new Error(
            `instance 2's connection did not hear a movement change naming ${account}: ${after.length} events since, ` +
              `${after.filter((e) => e.event === "status").length} of them status; the changes: ${JSON.stringify(changes)}\n${error.message}\n` +
              `the cluster's last output:\n${stack.output().slice(-3000)}`,
          );
        });
    };

    // A journal through instance 1 (its page and its Server Action): the notice reaches instance 2's connection.
    const via1 = await context.newPage();
    await via1.goto(`${direct(app1)}${journalPath}`);
    const before = on2.events.length;
    const amount1 = "3.17";
    const crid1 = await reviewJournal(via1, amount1);
    await via1.getByRole("button", { name: /Send cash journal/ }).click();
    await expect(via1.getByTestId("movement-status")).toHaveText(/Completed/i);
    // The consumer projects it into the books, and the notice of that commit reaches instance 2's connection.
    await expect.poll(() => booked(crid1), { message: "the consumer books the journal", timeout: 60_000 }).toBe("1");
    await expectHeard(to, before, 30_000);
    await via1.close();

    // A journal form rendered by instance 1 through the balancer (its response names the instance), reviewed, not
    // sent yet: its Server Action is posted after instance 1 is gone.
    const form = await context.newPage();
    let renderedBy = "";
    for (let i = 0; i < 10 && renderedBy !== "app-1"; i += 1) {
      const res = await form.goto(`${lb}${journalPath}`);
      expect(res?.status()).toBe(200);
      renderedBy = (await res?.headerValue("x-brokerdesk-instance")) ?? "";
    }
    expect(renderedBy).toBe("app-1");
    const amount2 = "4.29";
    const crid = await reviewJournal(form, amount2);

    // Instance 1 killed with its whole process group.
    const killed = pgidOf("app-1");
    process.kill(-killed, "SIGKILL");
    const killedAt = Date.now();
    await expect.poll(() => alive(killed), { timeout: 10_000 }).toBe(false);

    // Reads through the balancer while instance 1 is down and coming back: pages and a data route, none lost.
    const reads = ["/", "/movements", "/orders", `/api/movements?account=${to}`, "/api/health"];
    const answers: { status: number; instance: string; ms: number }[] = [];
    const read = async (p: string) => {
      const started = Date.now();
      const res = await fetch(`${lb}${p}`, { headers: { cookie }, redirect: "manual" });
      await res.arrayBuffer();
      answers.push({ status: res.status, instance: res.headers.get("x-brokerdesk-instance") ?? "", ms: Date.now() - started });
    };
    for (let round = 0; round < 4; round += 1) await Promise.all(reads.map(read));
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);

    // The write: the form rendered by instance 1 sends through the balancer, to whichever instance is up, once.
    const before2 = on2.events.length;
    const action = form.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/movements/new/cash-journal"));
    await form.getByRole("button", { name: /Send cash journal/ }).click();
    const actionResponse = await action;
    expect(actionResponse.status()).toBe(200);
    const actionBy = (await actionResponse.headerValue("x-brokerdesk-instance")) ?? "";
    await expect(form.getByTestId("movement-status")).toHaveText(/Completed/i);
    const [sent] = (
      await db.query<{ n: string }>("SELECT count(*)::text AS n FROM sandbox.requests WHERE payload->>'amount' = $1", [amount2])
    ).rows;
    expect(sent.n).toBe("1");
    expect((await one<{ n: string }>("SELECT count(*)::text AS n FROM sandbox.requests WHERE client_request_id = $1", [crid])).n).toBe("1");
    await expect.poll(() => booked(crid), { message: "the consumer books the journal", timeout: 60_000 }).toBe("1");
    // Instance 2's live connection outlived instance 1 and heard this one too.
    await expectHeard(to, before2, 60_000);

    // The browser's pages through the balancer: a page and its live channel (reconnected if it was on instance 1).
    await page.goto(`${lb}/movements`);
    await expect(page.getByRole("heading", { name: "Movements" })).toBeVisible();
    await expect(page.getByTestId("live-indicator")).toHaveText("Live", { timeout: 30_000 });

    // The supervisor started instance 1 again (a new process group), and the balancer uses it again.
    await expect.poll(() => stack.output(), { timeout: 60_000 }).toMatch(/App instance 1 stopped \(SIGKILL\); starting it again/);
    await expect.poll(() => pgidOf("app-1"), { timeout: 60_000 }).not.toBe(killed);
    groups.add(pgidOf("app-1"));
    await expect
      .poll(
        () =>
          fetch(`${direct(app1)}/api/health`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 180_000, intervals: [1_000] },
      )
      .toBe(200);
    const backAt = Date.now();
    const servedBy: string[] = [];
    await expect
      .poll(
        async () => {
          const res = await fetch(`${lb}/api/health`);
          servedBy.push(`${res.status} ${res.headers.get("x-brokerdesk-instance")}`);
          return servedBy.includes("200 app-1");
        },
        { timeout: 60_000, intervals: [500] },
      )
      .toBe(true);
    expect(servedBy.filter((s) => !s.startsWith("200 "))).toEqual([]);

    const slowest = Math.max(...answers.map((a) => a.ms));
    test.info().annotations.push({
      type: "failover",
      description:
        `reads after the kill: ${answers.length}, not 200: 0, by instance: ${JSON.stringify(countBy(answers.map((a) => a.instance)))}, ` +
        `slowest ${slowest} ms; form rendered by app-1, its action answered by ${actionBy}; ` +
        `instance 1 answered again ${Math.round((backAt - killedAt) / 1000)} s after the kill`,
    });
  } finally {
    for (const l of live) await l.close();
    await context.close();
    await db.end().catch(() => undefined);
    await stack.stop(30_000);
    // Every process group the command started is gone.
    expect([...groups].filter(alive)).toEqual([]);
  }
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
