import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The `brokerdesk` bin as a subprocess (asynchronously: the fake desk answers from this process meanwhile). */

const BIN = path.resolve(import.meta.dirname, "../../../cli/bin/brokerdesk.mjs");

export type CliResult = { code: number; stdout: string; stderr: string; json: () => unknown; error: () => Record<string, unknown> };

export const newConfigDir = () => mkdtempSync(path.join(tmpdir(), "brokerdesk-cli-"));

export function runCli(args: string[], options: { configDir: string; env?: Record<string, string>; stdin?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: options.configDir,
        BROKERDESK_CONFIG_DIR: options.configDir,
        BROKERDESK_RETRY_BASE_MS: "5",
        NODE_ENV: "test",
        ...options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code: code ?? -1,
        stdout,
        stderr,
        json: () => JSON.parse(stdout),
        error: () => JSON.parse(stderr.trim().split("\n").pop() ?? "{}") as Record<string, unknown>,
      }),
    );
    child.stdin.end(options.stdin ?? "");
  });
}
