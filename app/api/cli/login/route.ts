import { cliLogin } from "@/server/cli-auth/sessions";
import { cliRoute } from "../cli-route";

export const dynamic = "force-dynamic";

/**
 * `brokerdesk login`: a request signed with an access key, JSON `{ "code": "123456" }` from the staff member's
 * authenticator → `{ session, expires_at, staff: { email, name, role }, scopes }`. Refusals: 401 UNKNOWN_KEY,
 * BAD_SIGNATURE, STALE_TIMESTAMP, REPLAYED_NONCE, NOT_ENROLLED, WRONG_CODE; 429 RATE_LIMITED; 400 BAD_REQUEST.
 */
export const POST = cliRoute(cliLogin, (login) => login.answer);
