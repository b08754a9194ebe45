import "server-only";
import { NotFoundError } from "@/lib/errors";
import type { StatementPeriod } from "@/lib/schemas/statements";
import type { FileBody } from "@/server/http";
import type { Queryable } from "@/server/db/engine";
import { confirmationCsvRows, statementCsvRows } from "./csv";
import { confirmationPdf, statementPdf } from "./pdf";
import { selectAccountState } from "./queries";
import { accountStatement, tradeConfirmation } from "./statement";

/** The downloads: an account's statement and confirmations as files and CSV rows, named by account and period. */

async function knownAccount(q: Queryable, accountId: string): Promise<string> {
  const state = await selectAccountState(q, accountId);
  if (!state.account_number && !state.swept_until) throw new NotFoundError("The desk has no records of this account yet.");
  return state.account_number ?? accountId;
}

export const statementName = (account: string, p: StatementPeriod) => `statement-${account}-${p.from}-to-${p.to}`;
export const confirmationName = (account: string, date: string) => `confirmation-${account}-${date}`;

/** One kind of document (`P`: what picks it, a period or a day): built from the books, as a PDF file or as CSV rows. */
function accountDocument<P, D>(
  name: (account: string, p: P) => string,
  build: (q: Queryable, accountId: string, p: P) => Promise<D>,
  pdf: (doc: D) => Promise<Buffer>,
  csvRows: (doc: D) => (string | null)[][],
) {
  return {
    async pdfFile(q: Queryable, accountId: string, p: P): Promise<FileBody> {
      const account = await knownAccount(q, accountId);
      const body = await pdf(await build(q, accountId, p));
      return { body, contentType: "application/pdf", filename: `${name(account, p)}.pdf` };
    },
    async *csv(q: Queryable, accountId: string, p: P) {
      await knownAccount(q, accountId);
      yield* csvRows(await build(q, accountId, p));
    },
  };
}

const statement = accountDocument(statementName, accountStatement, statementPdf, statementCsvRows);
const confirmation = accountDocument(confirmationName, tradeConfirmation, confirmationPdf, confirmationCsvRows);

export const statementPdfFile = statement.pdfFile;
export const statementCsv = statement.csv;
export const confirmationPdfFile = confirmation.pdfFile;
export const confirmationCsv = confirmation.csv;
