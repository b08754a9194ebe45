import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import { formatPrice, formatQuantity } from "@/lib/money";
import { orderCurrency, type OrderRow } from "@/lib/schemas/order-list";

/** A blotter row's order: open (it may be changed), and in a line ("BUY 7 AAPL @ 22.36 USD"). */
export const isOpenOrder = (r: Pick<OrderRow, "status">) => (OPEN_ORDER_STATUSES as readonly string[]).includes(r.status);
export const describeOrder = (r: Pick<OrderRow, "side" | "quantity" | "symbol" | "limitPrice" | "market">) =>
  `${r.side ?? ""} ${formatQuantity(r.quantity)} ${r.symbol ?? ""}${r.limitPrice ? ` @ ${formatPrice(r.limitPrice, orderCurrency(r.market))}` : ""}`;
