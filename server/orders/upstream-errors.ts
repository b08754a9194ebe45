import "server-only";
import { AppError } from "@/lib/errors";
import { isBrokerError } from "@/server/broker";
import { toActionError, type UpstreamFieldMap } from "@/server/action-kit/upstream-error";

/**
 * The order ticket's field map for upstream rule violations (417): the rule's code names the field (a lot size
 * on the quantity, a locate on the side, a level on the legs), and ILLEGAL_PARAMETER messages name the wire path
 * (`new_orders[1].stop_price is required…`): the main order's field, or the combo member's own price field.
 */
const CODE_FIELDS: Record<string, { field: string; message?: string }> = {
  ACCOUNT_NOT_FOUND: { field: "account_id", message: "The broker does not know this account" },
  ACCOUNT_NOT_TRADABLE: { field: "account_id" },
  TRADING_PERMISSION_DENIED: { field: "account_id" },
  INSTRUMENT_NOT_FOUND: { field: "symbol" },
  INSTRUMENT_NOT_TRADABLE: { field: "symbol" },
  UNSUPPORTED_ORDER_TYPE: { field: "order_type" },
  UNSUPPORTED_ENTRUST_TYPE: { field: "entrust_type" },
  UNSUPPORTED_COMBO_TYPE: { field: "combo" },
  UNSUPPORTED_CATEGORY: { field: "instrument_type" },
  FRACTIONAL_NOT_ALLOWED: { field: "quantity" },
  INVALID_LOT_SIZE: { field: "quantity" },
  INVALID_QUANTITY: { field: "quantity" },
  INSUFFICIENT_POSITION: { field: "quantity" },
  INSUFFICIENT_BUYING_POWER: { field: "quantity" },
  OPENAPI_NO_NIGHT_TRADING_TIME: { field: "trading_session" },
  SHORT_NOT_ALLOWED: { field: "side" },
  NOT_SHORTABLE: { field: "side" },
  LOCATE_REQUIRED: { field: "side" },
  OPTION_LEVEL_TOO_LOW: { field: "legs" },
};

const MAIN_FIELDS = new Set([
  "symbol",
  "side",
  "quantity",
  "total_cash_amount",
  "order_type",
  "limit_price",
  "stop_price",
  "trailing_type",
  "trailing_stop_step",
  "trailing_limit_price_offset",
  "time_in_force",
  "expire_date",
  "entrust_type",
  "legs",
]);
const SESSION = { support_trading_session: "trading_session", option_strategy: "legs", combo_type: "combo" } as Record<string, string>;

/** `new_orders[i].field` of a request whose orders play these roles (main, then the combo's other orders). */
export function orderFieldOf(path: string, roles: readonly string[]): string | undefined {
  const m = /^new_orders\[(\d+)\]\.([a-z_]+)/.exec(path);
  if (!m) return MAIN_FIELDS.has(path) ? path : (SESSION[path] ?? (path === "account_id" ? "account_id" : undefined));
  const [, index, field] = m;
  const role = roles[Number(index)] ?? "main";
  if (SESSION[field]) return SESSION[field];
  if (role === "main") return MAIN_FIELDS.has(field) ? field : undefined;
  if (role === "profit") return field === "limit_price" ? "profit_limit_price" : "profit_enabled";
  if (role === "loss") return field === "stop_price" ? "loss_stop_price" : "loss_enabled";
  if (role === "oco") return field === "limit_price" ? "oco_limit_price" : field === "stop_price" ? "oco_stop_price" : "oco_order_type";
  return undefined;
}

export function orderFieldMap(roles: readonly string[]): UpstreamFieldMap {
  return { codes: CODE_FIELDS, field: (path) => orderFieldOf(path, roles) };
}

/**
 * Any error of a preview or place as an action error. ILLEGAL_PARAMETER names its path first but not as
 * "path: message", so its field is found here; the rest goes through the shared mapping.
 */
export function orderActionError(error: unknown, roles: readonly string[]): unknown {
  if (isBrokerError(error) && error.errorCode === "ILLEGAL_PARAMETER") {
    const path = /^(new_orders\[\d+\]\.[a-z_]+|[a-z_]+)\b/.exec(error.message)?.[1];
    const field = path ? orderFieldOf(path, roles) : undefined;
    if (field) {
      return new AppError(
        error.errorCode,
        error.message,
        "The broker refused some values. Check the highlighted fields.",
        {
          [field]: `The broker refused this: ${error.message.replace(/^new_orders\[\d+\]\./, "")}`,
        },
        { requestId: error.requestId },
      );
    }
  }
  return toActionError(error, { fields: orderFieldMap(roles), idempotent: true });
}
