import "server-only";
import { csvCell } from "@/lib/csv";
import type { AccountListParams } from "@/lib/schemas/account-list-params";
import { PERMISSION_LABELS, type TradingPermission } from "@/lib/schemas/virtual-account";
import { broker, paginate, type BrokerClient } from "@/server/broker";
import { toRow, upstreamFilter } from "./accounts";

/**
 * CSV of every account matching the table's filter: the upstream cursor is walked here, on the server, one page
 * of 200 at a time, and each page is written out before the next is asked for (memory stays flat).
 */
const COLUMNS = ["Account number", "External number", "Owner", "Type", "Status", "Permissions", "Option level", "Commission code", "Created (UTC)"];

export { csvCell };

export function accountsCsvStream(p: AccountListParams, client: BrokerClient = broker()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const filter = upstreamFilter(p);
  const rows = paginate((cursor) => client.listVirtualAccounts({ ...filter, page_size: 200, cursor }));
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(`${COLUMNS.map(csvCell).join(",")}\r\n`));
    },
    async pull(controller) {
      try {
        // A batch of rows per pull keeps the stream moving without one enqueue per cell.
        let batch = "";
        for (let i = 0; i < 200; i++) {
          const next = await rows.next();
          if (next.done) {
            if (batch) controller.enqueue(encoder.encode(batch));
            controller.close();
            return;
          }
          const r = toRow(next.value);
          batch += `${[r.account_number, r.external_account_number, r.owner_name, r.account_type, r.account_status,
            r.trading_permissions.map((x) => PERMISSION_LABELS[x as TradingPermission] ?? x).join("; "), r.option_level, r.commission_code, r.create_time]
            .map(csvCell).join(",")}\r\n`;
        }
        controller.enqueue(encoder.encode(batch));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}
