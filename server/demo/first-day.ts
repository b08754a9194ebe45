import "server-only";
import { isDemoMode } from "@/lib/env";
import { runAction } from "@/server/action-kit/define-action";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import { getMasterAccount } from "@/server/accounts/master";
import { staffOf } from "@/server/auth/staff-access";
import { findStaffByEmail } from "@/server/auth/staff";
import { broker } from "@/server/broker";
import type { AppDb } from "@/server/db";
import { logger } from "@/server/log";
import { movementAction } from "@/server/movements/action";
import { MOVEMENT_OPERATIONS } from "@/server/movements";
import { claimDemoFirstDay } from "./queries";

/**
 * The demo desk's first morning (embedded defaults only, once a database): the demo operator sends a few money
 * movements through the desk's own movement actions, exactly as the forms do: permission, the approval rules, the
 * upstream call, the read model, the audit trail. So the movements list has rows, the default approval rules hold
 * the largest deposit and the position journal (the approvals inbox has requests for the other operator and the
 * administrator), and the surveillance rules raise their alerts over them (a deposit above USD 50,000, a withdrawal
 * of about the same as a deposit just before it, six journals into one account in a day). The upstream has no listing of past movements,
 * so its history cannot reach the movements read model any other way; the orders' history reaches the blotter
 * through the backfill and the open-orders sweep. The client request ids are fixed: the same content on every run.
 */
const MAKER = "ops@brokerdesk.test";
const META = { clientIp: null, userAgent: "brokerdesk demo: the first morning's movements" };

export async function runDemoFirstDay(db: AppDb): Promise<void> {
  if (!isDemoMode() || !(await claimDemoFirstDay(db.engine))) return;
  const staff = await findStaffByEmail(db, MAKER);
  const maker = staff && staffOf(staff);
  if (!maker) return;
  const client = broker();
  const listed = (await client.listVirtualAccounts({ page_size: 50 })).items;
  // As the accounts page does with what it reads: the desk then names these accounts by number (alerts, requests).
  await rememberAccountNumbers(db.engine, listed);
  const accounts = listed.filter((a) => a.account_status === "ACTIVE");
  // The four newest active accounts (the listing is newest first), not the oldest that people and specs try first.
  const [a, b, c, d] = accounts.slice(0, 4).map((x) => x.account_id);
  const held = (await client.listPositions({ account_id: b })).find((p) => p.instrument_type === "EQUITY");
  const master = await getMasterAccount();
  const send = async (kind: string, input: Record<string, unknown>) => {
    const op = MOVEMENT_OPERATIONS.find((o) => o.kind === kind)!;
    const result = await runAction(movementAction(op), input, { staff: maker, meta: META });
    if (!result.ok) logger.warn({ kind, id: input.client_request_id, error: result.serverError }, "demo movement refused");
  };
  const funding = (id: string, account: string, type: "DEPOSIT" | "WITHDRAWAL", amount: string) =>
    send("INSTANT_FUNDING", { client_request_id: id, account_id: account, type, currency: "USD", amount });
  // Below the default rules' thresholds (a deposit above 100,000, a withdrawal above 25,000): sent at once.
  await funding("demo-dep-1", a, "DEPOSIT", "75000.00");
  await funding("demo-dep-2", c, "DEPOSIT", "22000.00");
  await funding("demo-wd-1", c, "WITHDRAWAL", "21000.00");
  for (let n = 1; n <= 6; n += 1) {
    await send("CASH_JOURNAL", {
      client_request_id: `demo-cj-${n}`,
      from_account: b,
      to_account: c,
      currency: "USD",
      amount: `${100 * n}.00`,
    });
  }
  if (master.accountId) {
    await send("FX_EXCHANGE", {
      client_request_id: "demo-fx-1",
      account_id: master.accountId,
      from_currency: "USD",
      to_currency: "HKD",
      from_amount: "25000.00",
    });
  }
  // Held by the default rules: a deposit above 100,000 and every position journal.
  await funding("demo-dep-3", d, "DEPOSIT", "150000.00");
  if (held) {
    await send("POSITION_JOURNAL", {
      client_request_id: "demo-pj-1",
      from_account: b,
      to_account: d,
      instrument_type: "EQUITY",
      market: held.market ?? "US",
      symbol: held.symbol,
      quantity: "1",
    });
  }
}
