import { lookupLayout } from "@/app/(desk)/guarded-layout";
import { findMovement } from "./lookup";

export default lookupLayout("movements:read", ({ kind, clientRequestId }: { kind: string; clientRequestId: string }) =>
  findMovement(kind, clientRequestId),
);
