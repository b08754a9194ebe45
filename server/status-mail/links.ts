import "server-only";
import { getDb } from "@/server/db";
import { bodyTooLargeResponse, isBodyTooLarge, readForm } from "@/server/http/body";
import { errorJson } from "@/server/http/errors";
import { mailKey } from "./config";
import { confirmByToken, unsubscribeByToken } from "./subscriptions";

/**
 * The POSTs behind the mails' links (no session: the signed token is the credential). The pages' buttons post a
 * form with `from=page` and are sent back to the page with the outcome (303); anything else (RFC 8058 one-click,
 * `List-Unsubscribe=One-Click`) gets 200 or 400 as plain text. A body over FORM_LIMIT_BYTES is refused (413), read no further.
 */
export async function linkPost(request: Request, kind: "confirm" | "unsubscribe"): Promise<Response> {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  let form: FormData | undefined;
  try {
    form = await readForm(request);
  } catch (e) {
    if (isBodyTooLarge(e)) return bodyTooLargeResponse(e);
    form = undefined;
  }
  const fromPage = form?.get("from") === "page";
  const key = mailKey();
  if (!key) return errorJson(503, { error: "MAIL_OFF", message: "Status mail is not configured." });
  const engine = (await getDb()).engine;
  const done = kind === "confirm" ? await confirmByToken(engine, key, token) : await unsubscribeByToken(engine, key, token);
  if (fromPage) {
    return new Response(null, { status: 303, headers: { location: `/status/${kind}?state=${done ? "done" : "invalid"}` } });
  }
  const text = done ? (kind === "confirm" ? "Subscription confirmed." : "Unsubscribed.") : "This link is not valid or has expired.";
  return new Response(text, {
    status: done ? 200 : 400,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
