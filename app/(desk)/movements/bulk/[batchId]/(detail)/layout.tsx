import { lookupLayout } from "@/app/(desk)/guarded-layout";
import { findBatch } from "./lookup";

export default lookupLayout("movements:read", ({ batchId }: { batchId: string }) => findBatch(batchId));
