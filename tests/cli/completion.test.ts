import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { beforeAll, expect, it, vi } from "vitest";
import { writeConfig, writePrivateFile } from "@/cli/src/config";
import { cacheFile } from "@/cli/src/skills/listing";
import { main } from "@/cli/src/main";
import { skillListing } from "@/server/tools/skills";

/** Shell completion asks the CLI, which answers from the profile's cached listing without calling the desk. */
vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => null }));

const DESK = "http://127.0.0.1:9";
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "brokerdesk-completion-"));
  const expires = new Date(Date.now() + 3600_000).toISOString();
  writeConfig(
    {
      profiles: { default: { desk: DESK, access_key_id: "bdak_k", secret_key: "bdsk_s", session: "bdcs_t", session_expires_at: expires } },
    },
    dir,
  );
  writePrivateFile(cacheFile(dir, "default"), JSON.stringify({ desk: DESK, fetched_at: new Date().toISOString(), skills: skillListing() }));
});

async function run(argv: string[]): Promise<string> {
  let out = "";
  const io = {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: () => true },
    stdin: new PassThrough(),
    env: { BROKERDESK_CONFIG_DIR: dir },
  };
  expect(await main(argv, io)).toBe(0);
  return out;
}

const complete = async (...words: string[]) => (await run(["__complete", "--", ...words])).split("\n").filter(Boolean);

it("completes commands, subcommands, options and an option's choices", async () => {
  expect(await complete("")).toEqual(expect.arrayContaining(["login", "profile", "orders", "approvals", "watchlist"]));
  expect(await complete("orders", "")).toEqual(["list", "export", "get", "cancel", "replace"]);
  expect(await complete("orders", "cancel", "--reason-code", "")).toEqual([
    "CUSTOMER_REQUEST",
    "WRONG_PRICE_OR_QUANTITY",
    "DUPLICATE",
    "RISK",
    "OTHER",
  ]);
  expect(await complete("orders", "cancel", "--")).toEqual(expect.arrayContaining(["--order-id", "--reason-code", "--yes", "--dry-run"]));
});

it("completes from the listing of the profile the line names", async () => {
  expect(await complete("--profile", "default", "orders", "")).toContain("cancel");
  expect(await complete("--profile", "nobody", "orders", "")).toEqual([]);
});

it("prints a script for bash and for zsh that calls the CLI back", async () => {
  for (const shell of ["bash", "zsh"]) expect(await run(["completion", shell])).toContain("brokerdesk __complete --");
});
