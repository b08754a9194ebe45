import { env } from "@/lib/env";
import { getDb } from "@/server/db";
import { streamHealth } from "@/server/books/health";
import { jsonRoute } from "@/server/http";

export const dynamic = "force-dynamic";

/** The stream-health page's data, for its refetches. */
export const GET = jsonRoute({ permission: "stream:read" }, async () => streamHealth((await getDb()).engine, env().EVENTS_SILENCE_MS));
