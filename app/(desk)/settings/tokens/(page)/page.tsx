import type { Metadata } from "next";
import { TokensPage } from "../tokens-page";

export const metadata: Metadata = { title: "Access tokens" };

export default function MyTokensPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <TokensPage view="mine" searchParams={searchParams} />;
}
