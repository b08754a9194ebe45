import { beforeAll, beforeEach } from "vitest";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import type { EventsFixture } from "../events/helpers";
import type { TestEngine } from "./engines";
import { useStartedFixture } from "./started-fixture";

/** The upstream's order reads, as the sandbox's call counter names them. */
export const DETAIL = "GET /broker/orders/get";
export const OPEN_LIST = "GET /broker/orders/open-orders/list";
export const HISTORY = "GET /broker/orders/historical-orders/list";

/**
 * The order tests' fixture: started as useStartedFixture's, with every seeded account's number read into `numbers`
 * (by account id) and the desk's account directory filled with them, as the desk's account listings leave it; the
 * sandbox's faults cleared before each test.
 */
export function useOrdersFixture(te: TestEngine): { f: EventsFixture; numbers: Map<string, string> } {
  const f = useStartedFixture(te, 60_000);
  const numbers = new Map<string, string>();
  beforeAll(async () => {
    const accounts = (await f.client.listVirtualAccounts({ page_size: 100 })).items;
    for (const a of accounts) numbers.set(a.account_id, a.account_number ?? "");
    await rememberAccountNumbers(f.db.engine, accounts);
  });
  beforeEach(async () => {
    await f.api.call("POST", "/sandbox/faults/clear");
  });
  return { f, numbers };
}
