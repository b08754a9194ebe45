"use client";
import Link from "next/link";
import { useState, type ChangeEvent } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { Alert, Textarea } from "@/components/ui/field";
import { Panel } from "@/components/ui/page";
import { isPendingApproval, type PendingApproval } from "@/lib/errors";
import { newClientId } from "@/lib/ids";
import {
  BULK_JOURNAL_COLUMNS,
  BULK_JOURNAL_MAX_ROWS,
  BULK_JOURNAL_TEMPLATE,
  rowErrorsOf,
  type BulkRowError,
} from "@/lib/schemas/bulk-journals";
import { uploadBulkJournalsAction } from "@/server/actions/movements";
import { RowErrorsTable } from "./row-errors-table";

const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(BULK_JOURNAL_TEMPLATE)}`;

/**
 * The upload: a CSV chosen or pasted, checked on the server row by row; each bad row's line, column and message
 * shown, nothing held while one is bad; once all are good the batch is held for approval as one request. The batch
 * id is made once by the page on the server (`batchId`; made here, the server's render and the browser's would
 * differ) and kept, so a second submit is the same batch; "New batch", after a batch is held, makes the next.
 */
export function BulkJournalUpload({ batchId: first }: { batchId: string }) {
  const [batchId, setBatchId] = useState(first);
  const [csv, setCsv] = useState("");
  const [fileName, setFileName] = useState<string>();
  const [errors, setErrors] = useState<BulkRowError[]>([]);
  const [held, setHeld] = useState<PendingApproval>();
  const { run, busy, banner, setBanner } = useAction();

  const lines = csv.trim() ? csv.trim().split(/\r?\n/).length - 1 : 0;

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    setCsv(await file.text());
    setErrors([]);
    setBanner(undefined);
  }

  async function submit() {
    setErrors([]);
    await run(() => uploadBulkJournalsAction({ batch_id: batchId, csv }), {
      onSuccess: (data) => {
        if (isPendingApproval(data)) setHeld(data);
      },
      onFailure: (_result, fieldErrors) => setErrors(rowErrorsOf(fieldErrors)),
      // A row's problem is in the table; anything else (an empty file) is said in the banner.
      shownOnForm: (name) => /^\d+:/.test(name),
    });
  }

  function startOver() {
    setBatchId(newClientId("bj"));
    setCsv("");
    setFileName(undefined);
    setErrors([]);
    setHeld(undefined);
    setBanner(undefined);
  }

  if (held) {
    return (
      <div className="max-w-3xl space-y-3" data-testid="bulk-held">
        <Alert tone="success">{held.message}</Alert>
        <p className="text-sm text-slate-700">
          Nothing is sent until it is approved. Then each row is sent once, with its own request id, and its result shows on the batch page.
        </p>
        <div className="flex gap-3 text-sm">
          <Link href={`/approvals/${held.approvalId}`} className="text-blue-700 hover:underline" prefetch={false}>
            The approval request
          </Link>
          <Link href={`/movements/bulk/${batchId}`} className="text-blue-700 hover:underline" prefetch={false}>
            The batch&apos;s results
          </Link>
        </div>
        <Button variant="secondary" onClick={startOver}>
          New batch
        </Button>
      </div>
    );
  }

  return (
    <div className="grid gap-4 xl:grid-cols-[minmax(0,36rem)_minmax(0,1fr)]">
      <Panel
        title="CSV"
        actions={
          <a href={TEMPLATE_HREF} download="bulk-journals-template.csv" className="text-sm text-blue-700 hover:underline">
            Download the template
          </a>
        }
      >
        <div className="space-y-3">
          <p className="text-sm text-slate-600">
            One journal a row, at most {BULK_JOURNAL_MAX_ROWS.toLocaleString("en-US")}. Columns:{" "}
            <code className="text-xs">{BULK_JOURNAL_COLUMNS.join(", ")}</code>. <code className="text-xs">kind</code> is CASH (currency,
            amount) or POSITION (instrument_type EQUITY or OPTION, market, symbol, quantity); accounts by number or id.
          </p>
          <label className="block text-sm">
            <span className="mb-1 block font-medium text-slate-700">File</span>
            <input type="file" accept=".csv,text/csv" onChange={onFile} disabled={busy} className="text-sm" aria-label="CSV file" />
            {fileName ? <span className="ml-2 text-xs text-slate-500">{fileName}</span> : null}
          </label>
          <label className="block text-sm">
            <span className="mb-1 block font-medium text-slate-700">Or paste it</span>
            <Textarea
              aria-label="CSV text"
              rows={14}
              spellCheck={false}
              className="font-mono text-xs"
              value={csv}
              disabled={busy}
              placeholder={BULK_JOURNAL_TEMPLATE}
              onChange={(e) => {
                setCsv(e.target.value);
                setHeld(undefined);
              }}
            />
          </label>
          <div className="flex items-center gap-3">
            <Button onClick={submit} disabled={busy || !csv.trim()}>
              {busy ? "Checking…" : "Check and send for approval"}
            </Button>
            <span className="text-xs text-slate-500">
              {lines.toLocaleString("en-US")} row{lines === 1 ? "" : "s"} · batch{" "}
              <span className="font-mono" data-testid="bulk-batch-id">
                {batchId}
              </span>
            </span>
          </div>
          <FormBanner banner={banner} />
        </div>
      </Panel>
      <Panel title={errors.length ? `Rows to fix (${new Set(errors.map((e) => e.line)).size})` : "Checks"}>
        {errors.length ? (
          <RowErrorsTable errors={errors} />
        ) : (
          <p className="text-sm text-slate-600">
            Every row is checked before anything is held: the accounts exist, currencies and amounts are valid, and the batch&apos;s
            outgoing amounts per source account and currency stay within its available cash (quantities within what it holds). A bad row is
            listed here by its line and column, and nothing is held until the file is fixed.
          </p>
        )}
      </Panel>
    </div>
  );
}
