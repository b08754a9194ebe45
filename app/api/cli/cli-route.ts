import { errorResponse } from "@/server/http/errors";
import { cliRefusalResponse, type CliRefusal } from "@/server/cli-auth/verify";
import { refuseCrossOrigin } from "@/server/tools/http";

/**
 * A command-line route: a browser's cross-origin request refused, the signed request checked by `check` (a refusal
 * is the answer, with its status), then `answer` of what passed as JSON, never cached; a throw is the desk's error
 * answer.
 */
export function cliRoute<T extends { ok: true }>(check: (request: Request) => Promise<T | CliRefusal>, answer: (passed: T) => unknown) {
  return async (request: Request): Promise<Response> => {
    try {
      const refused = refuseCrossOrigin(request);
      if (refused) return refused;
      const result = await check(request);
      if (!result.ok) return cliRefusalResponse(result);
      return Response.json(answer(result), { headers: { "cache-control": "no-store" } });
    } catch (error) {
      return errorResponse(error);
    }
  };
}
