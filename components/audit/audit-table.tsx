"use client";
import { DataTable } from "@/components/data-table/data-table";
import { ColumnsMenu, CursorPagination } from "@/components/data-table/data-table-controls";
import { useDataTable, useListState, type ListPage } from "@/components/data-table/use-data-table";
import { auditListParams, type AuditListRow } from "@/lib/schemas/audit";
import { auditColumns } from "./audit-columns";
import { AuditToolbar } from "./audit-toolbar";

/** The trail, one keyset page read by the server page; filters, sort and paging navigate (the page reads again). */
export function AuditTable({ page }: { page: ListPage<AuditListRow> }) {
  const list = useListState(auditListParams, { navigation: "router" });
  const { table, pagination, busy } = useDataTable({ list, columns: auditColumns, page, getRowId: (r) => String(r.seq) });
  return (
    <div className="flex flex-col gap-2">
      <AuditToolbar list={list} columns={<ColumnsMenu table={table} />} />
      <DataTable table={table} busy={busy} empty="No audit entries match these filters." rowTestId={() => "audit-row"} />
      <CursorPagination {...pagination} />
    </div>
  );
}
