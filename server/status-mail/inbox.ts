import "server-only";
import type { Queryable } from "@/server/db/engine";
import type { FileBody } from "@/server/http";
import type { InboxMessage, InboxSummary } from "@/lib/status-mail";
import { NotFoundError } from "@/lib/errors";
import { selectInbox, selectInboxAttachment, selectInboxMessage } from "./queries";

const LIST_LIMIT = 200;

/** /admin/mail: the newest received mails and the chosen one (else the newest) in full. */
export async function readInbox(q: Queryable, id?: string): Promise<{ mails: InboxSummary[]; selected?: InboxMessage }> {
  const mails = await selectInbox(q, LIST_LIMIT);
  const chosen = id && /^\d{1,18}$/.test(id) ? id : mails[0]?.id;
  return { mails, selected: chosen ? await selectInboxMessage(q, chosen) : undefined };
}

/** A file a received mail carried, for its download on /admin/mail. */
export async function inboxAttachment(q: Queryable, id: number, n: number): Promise<FileBody> {
  const file = await selectInboxAttachment(q, id, n);
  if (!file) throw new NotFoundError("No such attachment: the mail is unknown or carried fewer files.");
  return file;
}
