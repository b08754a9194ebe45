import type { Skill } from "@/cli/src/skills/listing";
import type { SkillHandler } from "./fake-desk";

/** The fake desk's answers: enough of each kind of skill (paged lists, one record, writes held or refused). */

const page = <T>(all: T[], cursor: unknown, size: number) => {
  const start = typeof cursor === "string" ? Number(cursor) : 0;
  const rows = all.slice(start, start + size);
  return { rows, next_cursor: start + size < all.length ? String(start + size) : null };
};

const ORDERS = [
  {
    id: "101",
    symbol: "AAPL",
    side: "BUY",
    quantity: "10",
    limit_price: "187.50",
    account: { id: "acc1", number: "VBD1000001" },
    note: "=1+1",
  },
  {
    id: "102",
    symbol: "MSFT",
    side: "SELL",
    quantity: "5",
    limit_price: null,
    account: { id: "acc2", number: "VBD1000002" },
    note: 'say "hi", then\nleave',
  },
  { id: "103", symbol: "TSLA", side: "BUY", quantity: "1", limit_price: "-5", account: { id: "acc1", number: "VBD1000001" }, note: "" },
];

const ACTIVITIES = Array.from({ length: 5 }, (_, i) => ({
  id: `act${i + 1}`,
  type: "TRADE",
  amount: `${(i + 1) * 10}.00`,
  currency: "USD",
}));

export function deskHandlers(): Record<string, SkillHandler> {
  const journals = new Map<string, { id: string; held: boolean }>();
  return {
    "find-accounts": () => ({
      status: 200,
      body: { rows: [{ id: "acc1", account_number: "VBD1000001", name: "Ada" }], next_cursor: null },
    }),
    "find-orders": (input) => ({ status: 200, body: page(ORDERS, input.cursor, 2) }),
    "get-order": (input) => ({
      status: 200,
      body: { ...ORDERS.find((o) => o.id === input.order_id), timeline: [{ at: "t1", what: "placed" }] },
    }),
    "cancel-order": () => ({ status: 200, body: { status: "cancel_requested" } }),
    "list-account-activities": (input) => ({ status: 200, body: page(ACTIVITIES, input.cursor, 2) }),
    "request-cash-journal": (input) => {
      const id = String(input.client_request_id);
      const existing = journals.get(id) ?? { id: `journal${journals.size + 1}`, held: Number(input.amount) >= 1000 };
      journals.set(id, existing);
      return existing.held
        ? {
            status: 202,
            body: { status: "held", approvalId: "5f0c6b1e-0000-4000-8000-000000000001", message: "Held for a second person." },
          }
        : { status: 200, body: { status: "sent", movement_id: existing.id } };
    },
    "approve-request": () => ({ status: 200, body: { status: "executed" } }),
    "get-stream-health": () => ({ status: 200, body: { state: "connected", lag_ms: 120 } }),
  };
}

/** A skill the CLI has never heard of: it must become `movements get` with no change to the CLI. */
export const NEW_SKILL: Skill = {
  name: "get-movement",
  tool: "get_movement",
  title: "Movement detail",
  description: "One money movement by its id.",
  read_only: true,
  destructive: false,
  input_schema: {
    type: "object",
    properties: { movement_id: { type: "string", description: "The movement's id" } },
    required: ["movement_id"],
  },
  output_schema: { type: "object", properties: {}, additionalProperties: {} },
};
