import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { env, type Env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { statusSubscribeSchema } from "@/lib/schemas/status-mail";
import { STATUS_MAIL_OFF_MESSAGE } from "@/lib/status-mail";
import type { Queryable } from "@/server/db/engine";
import { statusMailOff } from "./config";
import { confirmSubscriptionRow, countCall, requestSubscription, unsubscribeRow, type SubscriptionRow } from "./queries";
import { verifyMailToken } from "./tokens";

/**
 * Subscribing (double opt-in), confirming and unsubscribing. The subscribe request answers the same for a known and
 * an unknown address (it only queues a confirmation mail, whatever the address's state); it is limited per client
 * address and per e-mail address in fixed windows shared by every instance.
 */
export const SUBSCRIBE_LIMITS = { windowMs: 3600_000, perClient: 20, perAddress: 3 };

const hashed = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 32);

export class RateLimitedError extends AppError {
  constructor() {
    super("RATE_LIMITED", "Too many subscription requests. Try again in an hour.");
  }
}

/**
 * Queues a confirmation mail for the address and modules. `clientIp` is the address a trusted proxy saw (null
 * without one: then every client shares one window). Refused (`MAIL_OFF`) while the status mails are off: the
 * confirmation would never be sent.
 */
export async function subscribe(
  q: Queryable,
  input: unknown,
  clientIp: string | null,
  now: Date = new Date(),
  e: Env = env(),
): Promise<void> {
  const off = statusMailOff(e);
  if (off) throw new AppError("MAIL_OFF", `status mail off: ${off}`, STATUS_MAIL_OFF_MESSAGE);
  const { email, modules } = statusSubscribeSchema.parse(input);
  const { windowMs, perClient, perAddress } = SUBSCRIBE_LIMITS;
  if ((await countCall(q, `client:${hashed(clientIp ?? "-")}`, now, windowMs)) > perClient) throw new RateLimitedError();
  if ((await countCall(q, `address:${hashed(email)}`, now, windowMs)) > perAddress) throw new RateLimitedError();
  await requestSubscription(q, email, modules, randomBytes(16).toString("base64url"), now);
}

/** What a link's POST does by its token: the subscription as it now stands, or undefined when the token is not good. */
type ByToken = (q: Queryable, key: Buffer, token: string, now?: Date) => Promise<SubscriptionRow | undefined>;

/** Confirms by a confirmation link's token; undefined when the token is bad, expired, superseded or used. */
export const confirmByToken: ByToken = async (q, key, token, now = new Date()) => {
  const claims = verifyMailToken(key, token, "confirm", now);
  if (!claims?.nonce) return undefined;
  return confirmSubscriptionRow(q, claims.subscriptionId, claims.nonce, now);
};

/** Unsubscribes by an unsubscribe link's token; undefined when the token is bad or expired. */
export const unsubscribeByToken: ByToken = async (q, key, token, now = new Date()) => {
  const claims = verifyMailToken(key, token, "unsubscribe", now);
  if (!claims) return undefined;
  return unsubscribeRow(q, claims.subscriptionId, now);
};
