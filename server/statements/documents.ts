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

export async function statementPdfFile(q: Queryable, accountId: string, period: StatementPeriod): Promise<FileBody> {
  const name = await knownAccount(q, accountId);
  const body = await statementPdf(await accountStatement(q, accountId, period));
  return { body, contentType: "application/pdf", filename: `${statementName(name, period)}.pdf` };
}

export async function* statementCsv(q: Queryable, accountId: string, period: StatementPeriod) {
  await knownAccount(q, accountId);
  yield* statementCsvRows(await accountStatement(q, accountId, period));
}

export async function confirmationPdfFile(q: Queryable, accountId: string, date: string): Promise<FileBody> {
  const name = await knownAccount(q, accountId);
  const body = await confirmationPdf(await tradeConfirmation(q, accountId, date));
  return { body, contentType: "application/pdf", filename: `${confirmationName(name, date)}.pdf` };
}

export async function* confirmationCsv(q: Queryable, accountId: string, date: string) {
  await knownAccount(q, accountId);
  yield* confirmationCsvRows(await tradeConfirmation(q, accountId, date));
}
