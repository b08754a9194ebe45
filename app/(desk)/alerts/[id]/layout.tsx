import { lookupLayout } from "@/app/(desk)/guarded-layout";
import { findAlert } from "./lookup";

export default lookupLayout("alerts:read", ({ id }: { id: string }) => findAlert(id));
