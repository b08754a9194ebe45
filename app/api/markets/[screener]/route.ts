import { screenerParams } from "@/lib/schemas/screeners";
import { jsonRoute } from "@/server/http";
import { loadScreener } from "@/server/screeners";

/** One screener of the markets page (shared by every viewer for 30 s: server/screeners). */
export const GET = jsonRoute({ permission: "market:read", params: screenerParams }, async ({ params }) => loadScreener(params));
