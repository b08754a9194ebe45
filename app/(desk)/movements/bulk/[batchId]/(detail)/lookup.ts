import "server-only";
import { cache } from "react";
import { getBatchView } from "@/server/bulk-journals/page-data";
import { getDb } from "@/server/db";

/** The batch, read once a request by the layout (a real 404) and the page. */
export const findBatch = cache(async (batchId: string) => getBatchView(await getDb(), batchId));
