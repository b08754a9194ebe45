import { lookupLayout } from "@/app/(desk)/guarded-layout";
import { findOrder } from "./lookup";

export default lookupLayout("orders:read", ({ id }: { id: string }) => findOrder(id));
