import { linkPost } from "@/server/status-mail/links";

export const dynamic = "force-dynamic";

/** The List-Unsubscribe URL (RFC 8058 one-click POST, no session) and the unsubscribe page's button. */
export function POST(request: Request): Promise<Response> {
  return linkPost(request, "unsubscribe");
}
