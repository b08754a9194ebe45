import "server-only";
import { addDecimal, subDecimal } from "@/lib/money";
import type { BulkJournalRow } from "@/lib/schemas/bulk-journals";
import type { BrokerClient } from "@/server/broker/client";

type Balance = Awaited<ReturnType<BrokerClient["getBalance"]>>;
type Positions = Awaited<ReturnType<BrokerClient["listPositions"]>>;

/**
 * The Broker client a batch's rows are sent through: every call goes to the upstream as is, except the two reads a
 * row's check makes before sending (a cash journal's balance, a position journal's positions), which are read once
 * per source account for the whole run and then answered less what the run has already sent from that account.
 * Each row is so checked by its kind's own check, as the one-journal form checks it, against the batch's running
 * balance, without one balance read per row (the upstream allows two every two seconds).
 */
export function batchLedger(client: BrokerClient): { broker: BrokerClient; sent(row: BulkJournalRow): void } {
  const balances = new Map<string, Promise<Balance>>();
  const positions = new Map<string, Promise<Positions>>();
  const cashOut = new Map<string, string>(); // account|currency → sent
  const held = new Map<string, string>(); // account|type|market|symbol → sent

  const reads = {
    async getBalance(input: { account_id: string }) {
      if (!balances.has(input.account_id)) balances.set(input.account_id, client.getBalance(input));
      const b = await balances.get(input.account_id)!.catch((error: unknown) => {
        balances.delete(input.account_id);
        throw error;
      });
      return {
        ...b,
        account_currency_assets: b.account_currency_assets.map((a) => {
          const out = cashOut.get(`${input.account_id}|${a.currency}`);
          return out && a.available_withdrawal !== undefined ? { ...a, available_withdrawal: subDecimal(a.available_withdrawal, out) } : a;
        }),
      };
    },
    async listPositions(input: { account_id: string }) {
      if (!positions.has(input.account_id)) positions.set(input.account_id, client.listPositions(input));
      const list = await positions.get(input.account_id)!.catch((error: unknown) => {
        positions.delete(input.account_id);
        throw error;
      });
      return list.map((p) => {
        const out = held.get(`${input.account_id}|${p.instrument_type ?? "EQUITY"}|${p.market ?? "US"}|${p.symbol}`);
        return out ? { ...p, quantity: subDecimal(p.quantity, out) } : p;
      });
    },
  };
  const broker = new Proxy(client, {
    get: (target, prop, receiver) =>
      prop === "getBalance" || prop === "listPositions" ? reads[prop] : (Reflect.get(target, prop, receiver) as unknown),
  });
  return {
    broker,
    sent(row) {
      const r = row.request;
      if (row.kind === "CASH_JOURNAL") {
        const k = `${r.from_account}|${row.request.currency}`;
        cashOut.set(k, addDecimal(cashOut.get(k) ?? "0", row.request.amount));
      } else {
        const k = `${r.from_account}|${row.request.instrument_type}|${row.request.market}|${row.request.symbol}`;
        held.set(k, addDecimal(held.get(k) ?? "0", row.request.quantity));
      }
    },
  };
}
