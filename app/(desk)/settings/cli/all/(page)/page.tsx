import type { Metadata } from "next";
import { CliPage } from "../../cli-page";

export const metadata: Metadata = { title: "Access keys of every staff member" };

export default function AllAccessKeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <CliPage view="all" searchParams={searchParams} />;
}
