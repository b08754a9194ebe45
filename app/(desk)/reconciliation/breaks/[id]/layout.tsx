import { lookupLayout } from "@/app/(desk)/guarded-layout";
import { findBreak } from "./lookup";

export default lookupLayout("reconciliation:read", ({ id }: { id: string }) => findBreak(id));
