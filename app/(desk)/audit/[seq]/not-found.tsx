import { NotFoundNotice } from "@/components/ui/page";

export default function AuditEntryNotFound() {
  return (
    <NotFoundNotice
      title="No such audit entry"
      text="Entries are never removed: the number may have been mistyped in the address."
      href="/audit"
      back="← Audit trail"
    />
  );
}
