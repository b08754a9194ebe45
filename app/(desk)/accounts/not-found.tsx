import { NotFoundNotice } from "@/components/ui/page";

export default function AccountNotFound() {
  return (
    <NotFoundNotice
      title="Account not found"
      text="The broker does not know this virtual account."
      href="/accounts"
      back="Back to accounts"
    />
  );
}
