import { lookupLayout } from "@/app/(desk)/guarded-layout";
import { findApproval } from "./lookup";

export default lookupLayout("approvals:read", ({ id }: { id: string }) => findApproval(id));
