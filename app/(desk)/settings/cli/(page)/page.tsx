import type { Metadata } from "next";
import { CliPage } from "../cli-page";

export const metadata: Metadata = { title: "Command line" };

export default function MyAccessKeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <CliPage view="mine" searchParams={searchParams} />;
}
