import type { MovementAccount } from "@/lib/schemas/movement-form-data";

/** An account in a review: its number and name when the form knows them, else the id that will be sent. */
export function accountLabel(account: MovementAccount | undefined, id: string) {
  if (!account || account.account_id !== id) return <span className="font-mono">{id}</span>;
  return (
    <span>
      <span className="font-mono">{account.account_number}</span>{" "}
      <span className="text-slate-600">{account.is_master ? "(master)" : account.name}</span>
    </span>
  );
}
