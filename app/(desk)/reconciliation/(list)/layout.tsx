import { guardedLayout } from "@/app/(desk)/guarded-layout";

export default guardedLayout("reconciliation:read");
