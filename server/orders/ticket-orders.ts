import "server-only";
import { AppError } from "@/lib/errors";
import { compareDecimal, subDecimal } from "@/lib/money";
import { blockingFindings, buyingPowerFindings } from "@/lib/pre-trade";
import { optionLevelProblem, type StrategyLeg } from "@/lib/option-strategy";
import { strategyOf } from "@/lib/schemas/order-ticket";
import { orderRoles, toOrderRequest, type WireOrder } from "@/lib/schemas/order-ticket-wire";
import type { TicketPreview } from "@/lib/schemas/order-ticket-data";
import type { BrokerClient } from "@/server/broker";
import type { PlaceOrderInput, PreviewOrderInput } from "@/server/broker/schemas/orders";
import { marketFindings, preTradeRefusal } from "./pre-trade";
import { orderActionError } from "./upstream-errors";
import { MARKET_CURRENCY } from "@/lib/instruments";

/**
 * The server half of the ticket, shared by the preview and place actions: the wire request of the parsed ticket,
 * the option-level check against the account as the upstream knows it now (the form's check used what the picker
 * read), and the preview with its buying-power effect.
 */
export type ParsedTicket = Parameters<typeof toOrderRequest>[0];

export function ticketRequest(input: ParsedTicket) {
  const request = toOrderRequest(input);
  // the client parses the body with its own (stricter) wire schema before anything is sent
  return { request: request as PlaceOrderInput & { new_orders: WireOrder[] }, roles: orderRoles(request) };
}

export async function checkOptionLevel(input: ParsedTicket, broker: BrokerClient): Promise<void> {
  if (input.instrument_type !== "OPTION") return;
  const strategy = strategyOf(input);
  if (!strategy) return; // the schema refused it already
  const [account, positions] = await Promise.all([
    broker.getVirtualAccount({ account_id: input.account_id }),
    broker.listPositions({ account_id: input.account_id }),
  ]);
  const held = Object.fromEntries(positions.map((p) => [p.symbol, p.quantity]));
  const problem = optionLevelProblem(account.option_level, strategy, input.legs as StrategyLeg[], input.quantity, held);
  if (problem)
    throw new AppError("OPTION_LEVEL_TOO_LOW", problem, "The account's option level is too low for this order.", { legs: problem });
}

const currencyOf = (o: WireOrder) => MARKET_CURRENCY[o.market];

export async function previewTicket(input: ParsedTicket, broker: BrokerClient): Promise<TicketPreview> {
  const { request, roles } = ticketRequest(input);
  await checkOptionLevel(input, broker);
  const main = request.new_orders[0];
  const currency = currencyOf(main);
  // the desk's own checks read beside the upstream's preview; a quantity the instrument does not take is the desk's
  // word (with its reason) even where the upstream's preview refuses it too
  const [market, upstream] = await Promise.all([
    marketFindings(input, broker).catch((error: unknown) => ({ error })),
    Promise.all([broker.previewOrder(request as PreviewOrderInput), broker.getBalance({ account_id: input.account_id })]).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
  ]);
  if ("error" in market) throw orderActionError(market.error, roles);
  const unplaceable = market.filter((f) => f.code === "QUANTITY");
  if (unplaceable.length) throw preTradeRefusal(unplaceable);
  if ("error" in upstream) throw orderActionError(upstream.error, roles);
  const [preview, balance] = upstream.value;
  const buyingPower = balance.account_currency_assets.find((a) => a.currency === currency)?.buying_power ?? "0";
  const cost = preview.estimated_cost ?? "0";
  // A buy holds its cost and fees; a short holds (at most) its proceeds; a sell of held shares holds nothing.
  const hold = main.side === "SELL" ? "0" : cost;
  const detail = preview.estimated_transaction_fee_detail;
  const after = compareDecimal(hold, "0") === 0 ? buyingPower : subDecimal(buyingPower, hold);
  return {
    currency,
    estimated_cost: cost,
    estimated_fee: preview.estimated_transaction_fee ?? "0",
    commission: { actual: detail?.commission?.actual_commission ?? "0", receivable: detail?.commission?.receivable_commission ?? "0" },
    fees: (detail?.fees ?? []).map((f) => ({ type: f.type ?? "", actual: f.actual_value ?? "0", receivable: f.receivable_value ?? "0" })),
    buying_power: buyingPower,
    hold,
    buying_power_after: after,
    checks: [...market, ...buyingPowerFindings(after, currency)],
  };
}

/**
 * The place action's gate: the preview and its pre-trade checks read again now (the form's preview may be old or
 * skipped), refused with every blocking finding in words (and on its field) and nothing sent. A repeat of a ticket
 * the upstream already has (a retry after a timeout) passes: its own hold may now fail the buying-power check, and
 * the upstream answers the repeat with the first acks, placing nothing.
 */
export async function enforcePreTradeChecks(input: ParsedTicket & { overrides: readonly string[] }, broker: BrokerClient): Promise<void> {
  const { checks } = await previewTicket(input, broker);
  const blocking = blockingFindings(checks, input.overrides);
  if (blocking.length === 0) return;
  const placed = await broker.getOrder({ account_id: input.account_id, client_order_id: input.client_order_id }).then(
    () => true,
    () => false,
  );
  if (!placed) throw preTradeRefusal(blocking);
}
