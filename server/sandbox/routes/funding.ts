import "server-only";
import type { Hono } from "hono";
import { requireAccount } from "../account-store";
import type { HonoEnv, Sandbox } from "../context";
import { illegal } from "../errors";
import { quote } from "../fx";
import { cash, parseCurrency, parsePositive } from "../money";
import { movementView, submitMovement } from "../movements";
import { clientRequestId, requireRequest, type MovementKind } from "../requests";
import { route } from "../router";
import { required } from "../validate";

/** Validates, then claims the idempotency key and processes, all in one transaction. */
export function submit(sb: Sandbox, kind: MovementKind, body: Record<string, unknown>, accountId: string, payload: Record<string, string>) {
  const crid = clientRequestId(body);
  const at = sb.config.now();
  return sb.engine.transaction(async (tx) =>
    movementView(await submitMovement(tx, { kind, clientRequestId: crid, accountId, body, payload }, at, sb.holdRequests)),
  );
}

/** The currency and amount of a cash movement (instant funding, cash journal). */
export function cashAmount(body: Record<string, unknown>) {
  return { currency: parseCurrency(body.currency, "currency"), amount: cash(parsePositive(body.amount, "amount", 2)) };
}

function currencyPair(body: Record<string, unknown>) {
  const from = parseCurrency(body.from_currency, "from_currency");
  const to = parseCurrency(body.to_currency, "to_currency");
  if (from === to) throw illegal("from_currency and to_currency must differ.");
  return { from, to };
}

export function fundingRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "getFxRate", async ({ query }) => {
    const from = parseCurrency(required(query, "from_currency"), "from_currency");
    const to = parseCurrency(required(query, "to_currency"), "to_currency");
    return quote(from, to, sb.config.now(), sb.config.fxQuoteSeconds);
  });

  route(app, sb, "createFxRequest", async ({ body }) => {
    clientRequestId(body);
    const account = await requireAccount(sb.engine, body.account_id);
    if (!account.is_master) throw illegal("FX requests are made on the master account; use instant exchange for a virtual account.");
    const { from, to } = currencyPair(body);
    const amount = parsePositive(body.from_amount, "from_amount", 2);
    return submit(sb, "FX_EXCHANGE", body, account.account_id, {
      account_id: account.account_id,
      from_currency: from,
      to_currency: to,
      from_amount: cash(amount),
    });
  });
  route(app, sb, "getFxRequest", async ({ query }) => movementView(await requireRequest(sb, "FX_EXCHANGE", query)));

  route(app, sb, "createInstantExchange", async ({ body }) => {
    clientRequestId(body);
    const account = await requireAccount(sb.engine, body.account_id);
    if (account.is_master) throw illegal("Instant exchange is for virtual accounts; use an FX request on the master account.");
    const { from, to } = currencyPair(body);
    return submit(sb, "INSTANT_EXCHANGE", body, account.account_id, {
      account_id: account.account_id,
      from_currency: from,
      to_currency: to,
      from_amount: cash(parsePositive(body.from_amount, "from_amount", 2)),
      to_amount: cash(parsePositive(body.to_amount, "to_amount", 2)),
    });
  });
  route(app, sb, "getInstantExchange", async ({ query }) => movementView(await requireRequest(sb, "INSTANT_EXCHANGE", query)));

  route(app, sb, "createInstantFunding", async ({ body }) => {
    clientRequestId(body);
    const account = await requireAccount(sb.engine, body.account_id);
    if (account.is_master) throw illegal("Instant funding is for virtual accounts.");
    if (body.type !== "DEPOSIT" && body.type !== "WITHDRAWAL") throw illegal("type must be DEPOSIT or WITHDRAWAL.");
    return submit(sb, "INSTANT_FUNDING", body, account.account_id, {
      account_id: account.account_id,
      type: body.type,
      ...cashAmount(body),
    });
  });
  route(app, sb, "getInstantFunding", async ({ query }) => movementView(await requireRequest(sb, "INSTANT_FUNDING", query)));
}
