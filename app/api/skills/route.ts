import { channelCaller } from "@/server/tools/http";
import { skillListing } from "@/server/tools/skills";

export const dynamic = "force-dynamic";

/** Every skill endpoint with its input and output JSON Schemas (for a staff access token). */
export async function GET(request: Request): Promise<Response> {
  const caller = await channelCaller(request, "skills", "/api/skills");
  if (caller instanceof Response) return caller;
  return Response.json({ skills: skillListing() }, { headers: { "cache-control": "no-store" } });
}
