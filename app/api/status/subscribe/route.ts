import { env } from "@/lib/env";
import { SUBSCRIBE_ANSWER } from "@/lib/schemas/status-mail";
import { metaFromHeaders } from "@/server/auth/request-meta";
import { getDb } from "@/server/db";
import { bodyTooLargeResponse, FORM_LIMIT_BYTES, isBodyTooLarge, readBodyText } from "@/server/http/body";
import { errorJson, errorResponse } from "@/server/http/errors";
import { authorize } from "@/server/http/route";
import { RateLimitedError, subscribe } from "@/server/status-mail/subscriptions";

export const dynamic = "force-dynamic";

const jsonOf = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
};

/**
 * The status page's subscribe form: `{ email, modules }` (at most FORM_LIMIT_BYTES: 413) → 202 with one answer for
 * every address (a confirmation mail is queued whatever the address's state), 400 on bad input, 429 past a window's
 * limit. Open to whoever may see the status page: anyone with STATUS_PUBLIC, else a signed-in staff member with
 * `status:read` (401 / 403, as `GET /api/status`), checked before the body is read. Double opt-in keeps an address
 * from being signed up by someone else.
 */
export async function POST(request: Request): Promise<Response> {
  if (!env().STATUS_PUBLIC) {
    const auth = await authorize("status:read");
    if ("response" in auth) return auth.response;
  }
  try {
    const input = jsonOf(await readBodyText(request, { limit: FORM_LIMIT_BYTES }));
    await subscribe((await getDb()).engine, input, metaFromHeaders(request.headers).clientIp ?? null);
    return Response.json({ message: SUBSCRIBE_ANSWER }, { status: 202, headers: { "cache-control": "no-store" } });
  } catch (error) {
    if (isBodyTooLarge(error)) return bodyTooLargeResponse(error);
    if (error instanceof RateLimitedError) return errorJson(429, { error: error.code, message: error.userMessage });
    return errorResponse(error);
  }
}
