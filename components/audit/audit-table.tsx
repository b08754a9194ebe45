"use client";
import { dateRangeRule, type FilterField } from "@/components/data-table/filter-bar";
import { ListingTable } from "@/components/data-table/listing-table";
import { useListing } from "@/components/data-table/use-data-table";
import { AUDIT_ACTION_LABELS } from "@/lib/audit-actions";
import { ROLES } from "@/lib/auth/permissions";
import { auditListParams, type AuditListParams, type AuditListRow } from "@/lib/schemas/audit";
import { auditColumns } from "./audit-columns";
import { auditList } from "./query-keys";

const OUTCOMES = [
  { value: "success", label: "Success" },
  { value: "failure", label: "Failure" },
  { value: "denied", label: "Denied" },
  { value: "held", label: "Held for approval" },
];

const AUDIT_ACTION_SUGGESTIONS = [...new Set(Object.keys(AUDIT_ACTION_LABELS).flatMap((a) => [`${a.split(".")[0]}.`, a]))].sort();

const AUDIT_FILTERS: FilterField<AuditListParams>[] = [
  {
    name: "action",
    label: "Action",
    kind: "text",
    hint: "Exact, or a prefix ending in “.”",
    placeholder: "e.g. movements.",
    width: "w-40",
    // the desk's action names and their families, to pick from (any other text is still taken)
    suggestions: AUDIT_ACTION_SUGGESTIONS,
  },
  { name: "actor", label: "Actor", kind: "text", placeholder: "email", width: "w-48" },
  { name: "role", label: "Role", kind: "select", all: "Any", options: ROLES },
  {
    name: "target",
    label: "Target",
    kind: "account",
    hint: "Exact (kind:id), or an account id: the account and its orders",
    placeholder: "account id or kind:id",
  },
  { name: "outcome", label: "Outcome", kind: "select", all: "Any", options: OUTCOMES, width: "w-36" },
  {
    name: "party",
    label: "Maker or checker",
    kind: "text",
    hint: "Approvals this email made or decided",
    placeholder: "email",
    width: "w-44",
  },
  { name: "request", label: "Request id", kind: "text", hint: "The upstream request id", width: "w-36" },
  { name: "from", label: "From", kind: "date" },
  { name: "to", label: "To", kind: "date", joined: true },
];

/** The trail: URL state → one keyset page through /api/audit, prefetched by the page; every new entry refetches it. */
export function AuditTable() {
  const listing = useListing(auditListParams, auditList, {
    columns: auditColumns,
    getRowId: (r: AuditListRow) => String(r.seq),
  });
  return (
    <ListingTable
      listing={listing}
      filters={AUDIT_FILTERS}
      rules={[dateRangeRule]}
      label="Filter the audit trail"
      exportPath="/api/audit/export"
      empty={["No audit entries match these filters.", "No audit entries yet."]}
      rowTestId={() => "audit-row"}
    />
  );
}
