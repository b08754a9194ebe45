import { errorResponse } from "@/server/http/errors";
import { authenticateBearer, bearerErrorResponse } from "@/server/tokens/bearer";

export const dynamic = "force-dynamic";

/**
 * Who a staff access token speaks for: `Authorization: Bearer bdk_…` → `{ email, role, tokenId, scopes }`, so a
 * client can check its token (401 when unknown, expired or revoked, or its owner disabled; 429 past its rate limit).
 * No session: the token is the credential (the proxy lets bearer calls to /api through, auth.config.ts).
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const result = await authenticateBearer(request);
    if (!result.ok) return bearerErrorResponse(result);
    const { staff, tokenId, scopes } = result.caller;
    return Response.json({ email: staff.email, role: staff.role, tokenId, scopes }, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
