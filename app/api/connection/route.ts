import { z } from "zod";
import { checkToken, tokenStatus } from "@/server/broker";
import { jsonRoute } from "@/server/http";

export const dynamic = "force-dynamic";

/** The connection and token state, for the Connection page's polling while 2FA is pending (`?check=1` asks the upstream). */
export const GET = jsonRoute(
  { permission: "connection:manage", params: z.object({ check: z.literal("1").optional().catch(undefined) }) },
  ({ params }) => (params.check ? checkToken() : tokenStatus()),
);
