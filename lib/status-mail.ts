/** What /admin/mail shows of the embedded SMTP server's mails (server/status-mail → components/status). Plain types. */
export interface InboxSummary {
  id: string;
  receivedAt: Date;
  mailFrom: string;
  rcptTo: string[];
  subject: string;
}

export interface InboxMessage extends InboxSummary {
  headers: string;
  body: string;
  size: number;
  /** The files it carried, in their order (`n` from 1), without their bytes. */
  attachments: InboxAttachment[];
}

export interface InboxAttachment {
  n: number;
  filename: string;
  contentType: string;
  size: number;
}

/** The status page's answer while the status mails are off (no public address or no secret for their links). */
export const STATUS_MAIL_OFF_MESSAGE = "Status mails are not sent from this desk at the moment, so there is nothing to subscribe to.";
