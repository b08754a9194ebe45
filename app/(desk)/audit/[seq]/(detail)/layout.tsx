import { lookupLayout } from "@/app/(desk)/guarded-layout";
import { findAuditEntry } from "./lookup";

export default lookupLayout("audit:read", ({ seq }: { seq: string }) => findAuditEntry(seq));
