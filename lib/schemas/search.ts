import { z } from "zod";
import type { InstrumentSummary } from "./instrument-tabs";
import type { OrderRow } from "./order-list";
import type { AccountRow } from "./virtual-account-view";

/** The header's search box: an account (number, name, external number), an order (either id) or an instrument. */
export const deskSearchIn = z.object({ q: z.string().trim().min(1, "Type something to look up.").max(64) });

/** One part of the answer: its matches, or why it could not be read (the other parts still answer). */
export type SearchPart<T> = { rows: T[] } | { error: string };

/** Only the parts the viewer's role may read are present. */
export interface DeskSearchResult {
  accounts?: SearchPart<Pick<AccountRow, "account_id" | "account_number" | "owner_name" | "account_status">>;
  orders?: SearchPart<Pick<OrderRow, "id" | "clientOrderId" | "orderId" | "accountNumber" | "accountId" | "symbol" | "side" | "status">>;
  instruments?: SearchPart<InstrumentSummary>;
}
