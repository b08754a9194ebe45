import { channelCaller } from "@/server/tools/http";
import { callSkill } from "@/server/tools/skills";

export const dynamic = "force-dynamic";

/** One skill: JSON in, JSON out, with the permissions of the staff member whose access token (Bearer) is presented. */
export async function POST(request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const caller = await channelCaller(request, "skills", "/api/skills");
  if (caller instanceof Response) return caller;
  return callSkill((await params).name, request, caller);
}
