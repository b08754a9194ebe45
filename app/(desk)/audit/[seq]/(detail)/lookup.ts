import "server-only";
import { cache } from "react";
import { getAuditEntry } from "@/server/audit/list";
import { getDb } from "@/server/db";

/** The entry (`seq` digits only), read once a request by the layout (a real 404) and the page. */
export const findAuditEntry = cache(async (seq: string) =>
  /^\d{1,18}$/.test(seq) ? getAuditEntry((await getDb()).engine, Number(seq)) : undefined,
);
