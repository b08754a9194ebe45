import { NotFoundNotice } from "@/components/ui/page";

export default function MovementNotFound() {
  return (
    <NotFoundNotice title="Movement not found" text="The desk has no record of this movement." href="/movements" back="Back to movements" />
  );
}
