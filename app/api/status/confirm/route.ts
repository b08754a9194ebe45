import { linkPost } from "@/server/status-mail/links";

export const dynamic = "force-dynamic";

/** The confirmation page's button: `?token=` of the mail's link → the subscription's pending choice applies. */
export function POST(request: Request): Promise<Response> {
  return linkPost(request, "confirm");
}
