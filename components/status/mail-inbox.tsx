import Link from "next/link";
import { Panel } from "@/components/ui/page";
import { RowsTable } from "@/components/ui/rows-table";
import { formatBytes, formatDateTime } from "@/lib/format";
import type { InboxMessage, InboxSummary } from "@/lib/status-mail";

/** The embedded SMTP server's mails: a list (subject, to, time) and the chosen message with its headers. */
export function MailInbox({ mails, selected }: { mails: InboxSummary[]; selected?: InboxMessage }) {
  return (
    <div className="grid items-start gap-4 2xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <RowsTable
        label="Received mails"
        columns={[
          {
            head: "Subject",
            className: "max-w-xs truncate",
            cell: (m) => (
              <Link
                href={`/admin/mail?id=${m.id}`}
                className="text-blue-700 hover:underline"
                aria-current={m.id === selected?.id ? "true" : undefined}
              >
                {m.subject || "(no subject)"}
              </Link>
            ),
          },
          { head: "To", className: "max-w-[14rem] truncate", cell: (m) => m.rcptTo.join(", ") },
          { head: "Received", className: "whitespace-nowrap text-slate-600", cell: (m) => formatDateTime(m.receivedAt) },
        ]}
        rows={mails}
        rowKey={(m) => m.id}
        rowProps={(m) => ({ className: m.id === selected?.id ? "bg-blue-50" : undefined })}
        empty="No mail received yet."
      />
      {selected ? (
        <Panel title={selected.subject || "(no subject)"}>
          <dl className="mb-3 grid grid-cols-[6rem_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-slate-500">From</dt>
            <dd className="break-all">{selected.mailFrom}</dd>
            <dt className="text-slate-500">To</dt>
            <dd className="break-all">{selected.rcptTo.join(", ")}</dd>
            <dt className="text-slate-500">Received</dt>
            <dd>{formatDateTime(selected.receivedAt)}</dd>
          </dl>
          <h3 className="mb-1 text-xs font-semibold text-slate-600">Message</h3>
          <pre data-testid="mail-body" className="mb-3 rounded bg-slate-50 p-3 text-sm break-all whitespace-pre-wrap">
            {selected.body}
          </pre>
          {selected.attachments.length ? (
            <>
              <h3 className="mb-1 text-xs font-semibold text-slate-600">Attachments</h3>
              <ul data-testid="mail-attachments" className="mb-3 space-y-1 text-sm">
                {selected.attachments.map((a) => (
                  <li key={a.n}>
                    <a className="text-blue-700 hover:underline" href={`/api/mail/${selected.id}/attachments/${a.n}`} download>
                      {a.filename}
                    </a>{" "}
                    <span className="text-xs text-slate-500">
                      {a.contentType} · {formatBytes(a.size)}
                    </span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <details>
            <summary className="cursor-pointer text-xs font-semibold text-slate-600">Headers</summary>
            <pre data-testid="mail-headers" className="mt-1 rounded bg-slate-50 p-3 text-xs break-all whitespace-pre-wrap">
              {selected.headers}
            </pre>
          </details>
        </Panel>
      ) : null}
    </div>
  );
}
