import { NotFoundNotice } from "@/components/ui/page";

export default function BatchNotFound() {
  return (
    <NotFoundNotice
      title="Batch not found"
      text="The desk has no batch of journals by this id."
      href="/movements/bulk"
      back="Back to bulk journals"
    />
  );
}
