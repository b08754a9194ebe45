import { errorResponse } from "@/server/http/errors";
import { authenticateCliRequest } from "@/server/cli-auth/sessions";
import { cliRefusalResponse } from "@/server/cli-auth/verify";
import { refuseCrossOrigin } from "@/server/tools/http";

export const dynamic = "force-dynamic";

/** Who a command-line session acts for (signed, `Authorization: Bearer bdcs_…`): `{ email, name, role, scopes, expires_at }`. */
export async function GET(request: Request): Promise<Response> {
  try {
    const refused = refuseCrossOrigin(request);
    if (refused) return refused;
    const result = await authenticateCliRequest(request);
    if (!result.ok) return cliRefusalResponse(result);
    const { key, expiresAt } = result.caller;
    const { email, name, role } = key.staff;
    return Response.json(
      { email, name, role, scopes: key.scopes, expires_at: expiresAt.toISOString() },
      { headers: { "cache-control": "no-store" } },
    );
  } catch (error) {
    return errorResponse(error);
  }
}
