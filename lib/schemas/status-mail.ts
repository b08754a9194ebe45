import { z } from "zod";
import { STATUS_MODULES } from "@/lib/status";

/** The status page's subscribe form: an address and the modules whose changes it wants (form and route). */
export const statusSubscribeSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).email(),
  modules: z.array(z.enum(STATUS_MODULES)).min(1).max(STATUS_MODULES.length),
});

/** The one answer to a subscribe request, whether the address is known or not. */
export const SUBSCRIBE_ANSWER = "Check your inbox: if the address can receive mail, a confirmation link is on its way.";

/** An attachment of a mail the embedded SMTP server received (Admin → Mail): the mail's id and its place in it. */
export const inboxAttachmentParamsSchema = z.object({
  id: z.coerce.number().int().positive(),
  n: z.coerce.number().int().positive().max(1000),
});
