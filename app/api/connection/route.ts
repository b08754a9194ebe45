import { guardRoute } from "@/server/auth/guard";
import { checkToken, tokenStatus } from "@/server/broker";

export const dynamic = "force-dynamic";

/** The connection and token state, for the Connection page's polling while 2FA is pending (`?check=1` asks the upstream). */
export async function GET(request: Request) {
  const guard = await guardRoute("connection:manage");
  if ("response" in guard) return guard.response;
  const check = new URL(request.url).searchParams.get("check") === "1";
  return Response.json(check ? await checkToken() : await tokenStatus());
}
