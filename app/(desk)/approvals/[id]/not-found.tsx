import { NotFoundNotice } from "@/components/ui/page";

export default function ApprovalNotFound() {
  return (
    <NotFoundNotice
      title="No such approval request"
      text="It may have been mistyped in the address."
      href="/approvals"
      back="← Approvals"
    />
  );
}
