import type { ApprovalListRow } from "@/lib/schemas/approvals";

export const plural = (n: number) => (n === 1 ? "1 request" : `${n} requests`);

/** What a bulk decision's confirmation says: the question, then the requests, the first ten by their summary. */
export function confirmText(question: string, rows: ApprovalListRow[]): string {
  const names = rows.slice(0, 10).map((r) => `• ${r.summary}`);
  if (rows.length > 10) names.push(`… and ${rows.length - 10} more`);
  return `${question}\n\n${names.join("\n")}`;
}
