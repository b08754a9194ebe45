import Link from "next/link";

/**
 * An account as staff name it: its number when the desk knows it, else its id cut to the column's width; both on
 * hover; a link to the account's page unless `plain`.
 */
export function AccountRef({
  id,
  number,
  plain = false,
  testId,
}: {
  id: string;
  number: string | null | undefined;
  plain?: boolean;
  testId?: string;
}) {
  const text = (
    <span className="block max-w-44 truncate font-mono text-xs 2xl:max-w-none" title={number ? `${number} · ${id}` : id}>
      {number ?? id}
    </span>
  );
  if (plain) return text;
  return (
    <Link
      href={`/accounts/${encodeURIComponent(id)}`}
      prefetch={false}
      className="text-blue-700 hover:underline"
      data-account-link
      data-testid={testId}
    >
      {text}
    </Link>
  );
}
