import { beforeEach, describe, expect, it, vi } from "vitest";
import { newClientId } from "@/lib/ids";
import { addDecimal, convertAt, mulDecimal, roundMoney, subDecimal } from "@/lib/money";
import {
  createCashJournalAction,
  createFxRequestAction,
  createInstantExchangeAction,
  createInstantFundingAction,
  createPositionJournalAction,
} from "@/server/actions/movements";
import { accountNumbers } from "@/server/accounts/directory";
import { listAudit } from "@/server/audit/list";
import { getAccountCash, getHeldPositions, searchMovementAccounts } from "@/server/movements/form-data";
import { prefill } from "@/server/movements/form-prefill";
import { instantFunding } from "@/server/movements/instant-funding";
import { masterAccountId } from "@/server/sandbox/seed";
import { seedAccountId } from "@/server/sandbox/seed/accounts";
import { testEngines } from "../helpers/engines";
import { useFixtureWithoutRules } from "../helpers/four-eyes";
import { session } from "../helpers/desk-session";

/**
 * The movement actions against a started sandbox: what is refused before anything is sent (counted by the
 * sandbox's call counter), one journal per client_request_id, an option position journal by OCC symbol, the
 * sandbox's reason for a rejected journal, a stale instant-exchange quote, and the accounts a form's address names.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.9"));

const OPS = { id: "00000000-0000-4000-8000-000000000003", email: "ops@example.test", name: "Ops", role: "operations" };
const MASTER = masterAccountId();
const CASH_VA = seedAccountId(0); // CASH, US + HK, ACTIVE
const OPTIONS_VA = seedAccountId(1); // MARGIN, US options, holds one option position
const OTHER_VA = seedAccountId(2); // MARGIN, ACTIVE
const FROZEN_VA = seedAccountId(11);
const crid = () => newClientId("t");

for (const engine of testEngines()) {
  describe(`movement actions on ${engine.name}`, () => {
    // About what is refused or sent, not four-eyes: no approval rule holds these movements.
    const f = useFixtureWithoutRules(engine);
    beforeEach(async () => {
      session.staff = OPS;
      await f.api.call("POST", "/sandbox/calls/reset");
    });

    const calls = async (): Promise<Record<string, number>> => (await f.api.call("GET", "/sandbox/calls")).body.data;
    const available = async (account: string, currency: string) =>
      (await f.client.getBalance({ account_id: account })).account_currency_assets.find((a) => a.currency === currency)
        ?.available_withdrawal ?? "0";
    const requestRows = async (id: string) =>
      Number(
        (await f.db.engine.query<{ n: string }>("SELECT count(*)::text AS n FROM sandbox.requests WHERE client_request_id = $1", [id]))
          .rows[0].n,
      );

    it("refuses a withdrawal above withdrawable cash on the amount field, with no create call upstream", async () => {
      const have = await available(CASH_VA, "USD");
      await f.api.call("POST", "/sandbox/calls/reset");
      const result = await createInstantFundingAction({
        client_request_id: crid(),
        account_id: CASH_VA,
        type: "WITHDRAWAL",
        currency: "USD",
        amount: convertAt(addDecimal(have, "0.01"), "1", "USD"),
      });
      expect(result).toMatchObject({
        ok: false,
        code: "INSUFFICIENT_CASH",
        fieldErrors: { amount: expect.stringContaining("withdrawable cash") },
      });
      const counted = await calls();
      expect(counted["POST /broker/funding/instant-funding/create"]).toBeUndefined();
      expect(counted["GET /broker/assets/balances/get"]).toBe(1);
      expect(await available(CASH_VA, "USD")).toBe(have);
      const [entry] = (await listAudit(f.db.engine, { action: "movements.instant_funding" })).rows;
      expect(entry).toMatchObject({ outcome: "failure", errorCode: "INSUFFICIENT_CASH", target: `account:${CASH_VA}` });
    });

    it("a withdrawal within withdrawable cash completes; deposit and withdrawal are told apart for approvals", async () => {
      const id = crid();
      const result = await createInstantFundingAction({
        client_request_id: id,
        account_id: CASH_VA,
        type: "WITHDRAWAL",
        currency: "USD",
        amount: "10.00",
      });
      expect(result).toMatchObject({ ok: true, data: { kind: "INSTANT_FUNDING", client_request_id: id, status: "COMPLETED" } });
      const ruleKeys = async (type: "WITHDRAWAL" | "DEPOSIT") =>
        (
          await instantFunding.assess(
            { client_request_id: id, account_id: CASH_VA, type, currency: "USD", amount: "1" },
            undefined as never,
          )
        ).ruleKeys;
      expect(await ruleKeys("WITHDRAWAL")).toEqual(["movements.instant_funding.WITHDRAWAL"]);
      expect(await ruleKeys("DEPOSIT")).toEqual(["movements.instant_funding.DEPOSIT"]);
      expect(instantFunding.money({ client_request_id: id, account_id: CASH_VA, type: "DEPOSIT", currency: "HKD", amount: "5" })).toEqual({
        currency: "HKD",
        amount: "5",
      });
    });

    it("the same client_request_id sent twice makes one journal and moves the cash once", async () => {
      const id = crid();
      const before = await available(OTHER_VA, "USD");
      const request = { client_request_id: id, from_account: MASTER, to_account: OTHER_VA, currency: "USD" as const, amount: "1234.56" };
      const first = await createCashJournalAction(request);
      const again = await createCashJournalAction(request);
      expect(first).toMatchObject({ ok: true, data: { status: "COMPLETED", client_request_id: id } });
      expect(again).toEqual(first);
      expect(await requestRows(id)).toBe(1);
      expect((await calls())["POST /broker/journals/cash-journals/create"]).toBe(2);
      const after = await available(OTHER_VA, "USD");
      expect(Number(after) - Number(before)).toBeCloseTo(1234.56, 2);
      const { rows } = await f.db.engine.query<{ status: string }>(
        "SELECT status FROM brokerdesk.money_movements WHERE client_request_id = $1",
        [id],
      );
      expect(rows.map((r) => r.status)).toEqual(["COMPLETED"]);
    });

    it("a withdrawal sent again after its answer was lost answers its first result, though the desk's check would now refuse it", async () => {
      const have = await available(CASH_VA, "USD");
      // More than half of what the account can give: the first withdrawal leaves less than the amount.
      const amount = roundMoney(mulDecimal(have, "0.6"), "USD");
      const request = { client_request_id: crid(), account_id: CASH_VA, type: "WITHDRAWAL" as const, currency: "USD" as const, amount };
      const first = await createInstantFundingAction(request);
      expect(first).toMatchObject({ ok: true, data: { status: "COMPLETED" } });
      const again = await createInstantFundingAction(request);
      expect(again).toEqual(first);
      expect(await requestRows(request.client_request_id)).toBe(1);
      expect(await available(CASH_VA, "USD")).toBe(subDecimal(have, amount));
      // Another body under the same id is the upstream's refusal, not the desk's check's.
      const other = await createInstantFundingAction({ ...request, amount: addDecimal(amount, "1") });
      expect(other).toMatchObject({ ok: false, code: "DUPLICATE_CLIENT_REQUEST_ID" });
      // A new request for the same amount is refused before anything is sent.
      const fresh = await createInstantFundingAction({ ...request, client_request_id: crid() });
      expect(fresh).toMatchObject({ ok: false, code: "INSUFFICIENT_CASH" });
      // The cash goes back for the other tests of this file.
      const back = await createInstantFundingAction({ ...request, client_request_id: crid(), type: "DEPOSIT" });
      expect(back).toMatchObject({ ok: true, data: { status: "COMPLETED" } });
    });

    it("a journal the sandbox rejects returns the sandbox's reason", async () => {
      const result = await createCashJournalAction({
        client_request_id: crid(),
        from_account: MASTER,
        to_account: FROZEN_VA,
        currency: "USD",
        amount: "100.00",
      });
      expect(result).toMatchObject({ ok: true, data: { status: "REJECTED", reason: expect.stringMatching(/FROZEN and cannot receive/) } });
    });

    it("a cash journal above the source's available cash is refused on the amount field before sending", async () => {
      const result = await createCashJournalAction({
        client_request_id: crid(),
        from_account: CASH_VA,
        to_account: OTHER_VA,
        currency: "USD",
        amount: "99999999.00",
      });
      expect(result).toMatchObject({
        ok: false,
        code: "INSUFFICIENT_CASH",
        fieldErrors: { amount: expect.stringContaining("available cash") },
      });
      expect((await calls())["POST /broker/journals/cash-journals/create"]).toBeUndefined();
    });

    it("a position journal of an option given in OCC format completes; more than held is refused on quantity", async () => {
      const held = (await f.client.listPositions({ account_id: OPTIONS_VA })).find((p) => p.instrument_type === "OPTION");
      expect(held?.symbol).toMatch(/^[A-Z]+\d{6}[CP]\d{8}$/);
      const base = {
        from_account: OPTIONS_VA,
        to_account: OTHER_VA,
        instrument_type: "OPTION" as const,
        market: "US" as const,
        symbol: held!.symbol,
      };
      const tooMany = await createPositionJournalAction({
        ...base,
        client_request_id: crid(),
        quantity: String(Number(held!.quantity) + 1),
      });
      expect(tooMany).toMatchObject({
        ok: false,
        code: "INSUFFICIENT_POSITION",
        fieldErrors: { quantity: expect.stringContaining("More than held") },
      });
      expect((await calls())["POST /broker/journals/position-journals/create"]).toBeUndefined();

      const id = crid();
      const result = await createPositionJournalAction({ ...base, client_request_id: id, quantity: "1" });
      expect(result).toMatchObject({ ok: true, data: { kind: "POSITION_JOURNAL", status: "COMPLETED", client_request_id: id } });
      const moved = (await f.client.listPositions({ account_id: OTHER_VA })).find((p) => p.symbol === held!.symbol);
      expect(moved?.quantity).toBe("1");
    });

    it("refuses an instant exchange whose to_amount the current quote no longer gives, on to_amount, with nothing sent", async () => {
      const quote = await f.client.getFxRate({ from_currency: "USD", to_currency: "HKD" });
      const current = convertAt("100.00", quote.fx_rate, "HKD");
      const stale = convertAt("100.00", "7.85", "HKD"); // a rate the quote no longer gives
      const result = await createInstantExchangeAction({
        client_request_id: crid(),
        account_id: CASH_VA,
        from_currency: "USD",
        to_currency: "HKD",
        from_amount: "100.00",
        to_amount: stale,
      });
      expect(result).toMatchObject({
        ok: false,
        code: "STALE_QUOTE",
        fieldErrors: { to_amount: expect.stringContaining(`the amount is ${current.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`) },
      });
      expect((await calls())["POST /broker/funding/instant-exchanges/create"]).toBeUndefined();

      const ok = await createInstantExchangeAction({
        client_request_id: crid(),
        account_id: CASH_VA,
        from_currency: "USD",
        to_currency: "HKD",
        from_amount: "100.00",
        to_amount: current,
      });
      expect(ok).toMatchObject({ ok: true, data: { kind: "INSTANT_EXCHANGE", status: "COMPLETED" } });
    });

    it("an FX request is made at the master account only", async () => {
      const wrong = await createFxRequestAction({
        client_request_id: crid(),
        account_id: CASH_VA,
        from_currency: "USD",
        to_currency: "HKD",
        from_amount: "100.00",
      });
      expect(wrong).toMatchObject({ ok: false, fieldErrors: { account_id: expect.stringContaining("master account") } });
      const ok = await createFxRequestAction({
        client_request_id: crid(),
        account_id: MASTER,
        from_currency: "USD",
        to_currency: "HKD",
        from_amount: "1000.00",
      });
      expect(ok).toMatchObject({ ok: true, data: { kind: "FX_EXCHANGE", status: "COMPLETED" } });
    });

    it("the forms' reads answer for the master account; a search is one upstream list call", async () => {
      await searchMovementAccounts("", "all"); // the master account is read once and kept
      await f.api.call("POST", "/sandbox/calls/reset");
      const found = await searchMovementAccounts("master", "all");
      expect(found[0]).toMatchObject({ account_id: MASTER, account_number: "FV000123", is_master: true });
      const byNumber = await searchMovementAccounts("VBD1000003", "virtual");
      expect(byNumber.map((a) => a.account_number)).toContain("VBD1000003");
      expect(byNumber.some((a) => a.is_master)).toBe(false);
      expect((await calls())["GET /broker/accounts/virtual-accounts/list"]).toBe(2);
      const cash = await getAccountCash(MASTER, "USD");
      expect(Number(cash.available)).toBeGreaterThan(1_000_000);
      const held = await getHeldPositions(OPTIONS_VA);
      expect(held.some((p) => p.instrument_type === "OPTION")).toBe(true);
      await expect(getAccountCash("nope", "USD")).rejects.toMatchObject({ name: "NotFoundError" });
    });

    it("a form opened with an account's number or id opens on it; a number not seen yet is found once and remembered", async () => {
      const open = (params: Record<string, string>) => prefill(Promise.resolve(params), ["from", "to", "account"]);
      const number = (await f.client.getVirtualAccount({ account_id: OTHER_VA })).account_number!;
      expect(number).not.toBe(OTHER_VA);
      await f.db.engine.query("DELETE FROM brokerdesk.account_directory WHERE account_id = $1", [OTHER_VA]);
      // The master account, not known yet: the form's two accounts share one read of it.
      delete (globalThis as { __brokerdeskMaster?: unknown }).__brokerdeskMaster;
      await f.api.call("POST", "/sandbox/calls/reset");

      const first = await open({ from: number, to: CASH_VA });
      expect(first.problems).toEqual([]);
      expect(first.accounts.from).toMatchObject({ account_id: OTHER_VA, account_number: number, is_master: false });
      expect(first.accounts.to).toMatchObject({ account_id: CASH_VA, is_master: false });
      // One read of the master account (by both sides at once) and one search for the number not learnt yet.
      expect((await calls())["GET /broker/accounts/virtual-accounts/list"]).toBe(2);
      expect(Object.fromEntries(await accountNumbers(f.db.engine, [OTHER_VA]))).toEqual({ [OTHER_VA]: number });

      const again = await open({ account: ` ${number.toLowerCase()} ` });
      expect(again.accounts.account).toMatchObject({ account_id: OTHER_VA, account_number: number });
      expect((await calls())["GET /broker/accounts/virtual-accounts/list"]).toBe(2);

      expect((await open({ from: MASTER })).accounts.from).toMatchObject({ account_id: MASTER, is_master: true });
      const unknown = await open({ from: "NOPE123", to: "x'; DROP TABLE accounts; --" });
      expect(unknown.accounts).toEqual({});
      expect(unknown.problems.sort()).toEqual(["No account NOPE123.", "No account x'; DROP TABLE accounts; --."]);

      // The upstream's rate limit says nothing of the account: the form says it could not be read, not that it is unknown.
      const fault = await f.api.call("POST", "/sandbox/faults", {
        body: { type: "RATE_LIMIT", path_pattern: "/broker/accounts/virtual-accounts/get", count: 1 },
      });
      expect(fault.status).toBe(200);
      const limited = await open({ from: FROZEN_VA }); // not read within the shared reads' 2 s
      await f.api.call("POST", "/sandbox/faults/clear");
      expect(limited.accounts).toEqual({});
      expect(limited.problems).toEqual(["The broker is limiting our requests. Try again in a moment."]);
    });

    it("support may not move money", async () => {
      session.staff = { ...OPS, email: "support@example.test", role: "support" };
      const result = await createInstantFundingAction({
        client_request_id: crid(),
        account_id: CASH_VA,
        type: "DEPOSIT",
        currency: "USD",
        amount: "10.00",
      });
      expect(result).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(await calls()).toEqual({});
    });
  });
}
