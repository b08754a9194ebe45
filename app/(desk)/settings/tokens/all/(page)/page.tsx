import type { Metadata } from "next";
import { TokensPage } from "../../tokens-page";

export const metadata: Metadata = { title: "Access tokens of every staff member" };

export default function AllTokensPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <TokensPage view="all" searchParams={searchParams} />;
}
