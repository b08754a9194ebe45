import { inboxAttachmentParamsSchema } from "@/lib/schemas/status-mail";
import { getDb } from "@/server/db";
import { fileRoute } from "@/server/http";
import { inboxAttachment } from "@/server/status-mail/inbox";

/** A file a mail to the embedded SMTP server carried (Admin → Mail; audited as mail.download). */
export const GET = fileRoute(
  {
    permission: "mail:read",
    params: inboxAttachmentParamsSchema,
    action: "mail.download",
    target: (p) => `mail:${p.id}`,
  },
  async ({ params }) => inboxAttachment((await getDb()).engine, params.id, params.n),
);
