import { SUBSCRIBE_ANSWER } from "@/lib/schemas/status-mail";
import { metaFromHeaders } from "@/server/auth/request-meta";
import { getDb } from "@/server/db";
import { errorJson, errorResponse } from "@/server/http/errors";
import { RateLimitedError, subscribe } from "@/server/status-mail/subscriptions";

export const dynamic = "force-dynamic";

/**
 * The status page's subscribe form: `{ email, modules }` → 202 with one answer for every address (a confirmation
 * mail is queued whatever the address's state), 400 on bad input, 429 past a window's limit. No session: the page
 * may be public (auth.config.ts lets this path through); double opt-in keeps an address from being signed up by
 * someone else.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const input: unknown = await request.json().catch(() => ({}));
    await subscribe((await getDb()).engine, input, metaFromHeaders(request.headers).clientIp ?? null);
    return Response.json({ message: SUBSCRIBE_ANSWER }, { status: 202, headers: { "cache-control": "no-store" } });
  } catch (error) {
    if (error instanceof RateLimitedError) return errorJson(429, { error: error.code, message: error.userMessage });
    return errorResponse(error);
  }
}
