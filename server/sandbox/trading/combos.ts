import "server-only";
import { business, illegal } from "../errors";
import type { OrderSpec } from "./order-spec";

/**
 * The combo rules of the specification, for the orders of one place request:
 * - NORMAL: one order (several NORMAL orders in one request are independent).
 * - MASTER + STOP_PROFIT and/or STOP_LOSS: the master works; its children wait PENDING and start, sized to the
 *   master's filled quantity, when the master is FILLED; the two children are an OCO pair.
 * - OCO: two orders working at once; the first execution of one cancels the other.
 * - OTO: two orders; the second waits PENDING until the first is FILLED.
 * - OTOCO: three orders; the first works, the other two wait and then work as an OCO pair.
 * Which combos a US stock order may use depends on the API family (spec rule 6): the Trading API allows all six
 * (MASTER, STOP_PROFIT, STOP_LOSS, OTO, OCO, OTOCO); the ND Broker API only NORMAL, MASTER, STOP_PROFIT, STOP_LOSS and
 * OCO (OTO and OTOCO are served there for HK and CN stocks). Option orders are NORMAL only in both.
 */
export type ApiFamily = "broker" | "trading";
export interface Link {
  parent: number | null;
  oco: boolean;
  pending: boolean;
}

const US_STOCK_COMBOS: Record<ApiFamily, string[]> = {
  broker: ["NORMAL", "MASTER", "STOP_PROFIT", "STOP_LOSS", "OCO"],
  trading: ["NORMAL", "MASTER", "STOP_PROFIT", "STOP_LOSS", "OTO", "OCO", "OTOCO"],
};

export function linkCombo(specs: OrderSpec[], family: ApiFamily = "broker"): Link[] {
  const types = specs.map((s) => s.combo_type);
  for (const s of specs) {
    if (s.instrument_type === "OPTION" && s.combo_type !== "NORMAL")
      throw business("UNSUPPORTED_COMBO_TYPE", "Option orders take combo_type NORMAL.");
    if (s.instrument_type === "EQUITY" && s.market === "US" && !US_STOCK_COMBOS[family].includes(s.combo_type)) {
      throw business(
        "UNSUPPORTED_COMBO_TYPE",
        `combo_type ${s.combo_type} is not offered for US stocks by the Broker API (MASTER, STOP_PROFIT, STOP_LOSS, OCO only).`,
      );
    }
  }
  const sameSymbol = () => {
    if (specs.some((s) => s.symbol !== specs[0].symbol || s.market !== specs[0].market))
      throw illegal("The orders of a combo must trade one symbol.");
  };
  if (types.every((t) => t === "NORMAL")) return specs.map(() => ({ parent: null, oco: false, pending: false }));
  if (types[0] === "MASTER") {
    const children = types.slice(1);
    if (
      !children.length ||
      children.length > 2 ||
      children.some((t) => t !== "STOP_PROFIT" && t !== "STOP_LOSS") ||
      new Set(children).size !== children.length
    ) {
      throw illegal("A MASTER order is followed by one STOP_PROFIT and/or one STOP_LOSS order.");
    }
    sameSymbol();
    if (specs.slice(1).some((s) => s.side === specs[0].side))
      throw illegal("STOP_PROFIT / STOP_LOSS orders take the side opposite to the MASTER.");
    return specs.map((_, i) =>
      i === 0 ? { parent: null, oco: false, pending: false } : { parent: 0, oco: children.length === 2, pending: true },
    );
  }
  if (types.every((t) => t === "OCO")) {
    if (specs.length !== 2) throw illegal("An OCO combo has exactly two orders.");
    sameSymbol();
    return specs.map(() => ({ parent: null, oco: true, pending: false }));
  }
  if (types.every((t) => t === "OTO")) {
    if (specs.length !== 2) throw illegal("An OTO combo has exactly two orders.");
    return [
      { parent: null, oco: false, pending: false },
      { parent: 0, oco: false, pending: true },
    ];
  }
  if (types.every((t) => t === "OTOCO")) {
    if (specs.length !== 3) throw illegal("An OTOCO combo has exactly three orders: the trigger and an OCO pair.");
    return [
      { parent: null, oco: false, pending: false },
      { parent: 0, oco: true, pending: true },
      { parent: 0, oco: true, pending: true },
    ];
  }
  throw illegal(`combo_type ${types.join(", ")} cannot be combined in one request.`);
}
