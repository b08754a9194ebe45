import { errorResponse } from "@/server/http/errors";
import { cliLogin } from "@/server/cli-auth/sessions";
import { cliRefusalResponse } from "@/server/cli-auth/verify";
import { refuseCrossOrigin } from "@/server/tools/http";

export const dynamic = "force-dynamic";

/**
 * `brokerdesk login`: a request signed with an access key, JSON `{ "code": "123456" }` from the staff member's
 * authenticator → `{ session, expires_at, staff: { email, name, role }, scopes }`. Refusals: 401 UNKNOWN_KEY,
 * BAD_SIGNATURE, STALE_TIMESTAMP, REPLAYED_NONCE, NOT_ENROLLED, WRONG_CODE; 429 RATE_LIMITED; 400 BAD_REQUEST.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    const refused = refuseCrossOrigin(request);
    if (refused) return refused;
    const result = await cliLogin(request);
    if (!result.ok) return cliRefusalResponse(result);
    return Response.json(result.answer, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
