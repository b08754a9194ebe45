import { CredentialsSignin } from "@auth/core/errors";
import { describe, expect, it } from "vitest";
import { authLogger } from "@/server/auth/auth-log";
import { createLogger } from "@/server/log";

/** server/auth/auth-log.ts: what Auth.js reports, in the app's log. */
describe("authLogger", () => {
  const capture = () => {
    const lines: { level: number; msg: string; reason?: string; type?: string; err?: { message: string } }[] = [];
    const log = createLogger({ level: "info", destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    return { auth: authLogger(log), lines };
  };

  it("a refused sign-in is one info line with its reason, no error and no stack", () => {
    const { auth, lines } = capture();
    const refused = new CredentialsSignin("refused");
    refused.code = "locked";
    auth.error(refused);
    expect(lines).toEqual([expect.objectContaining({ level: 30, msg: "sign-in refused", reason: "locked" })]);
    expect(JSON.stringify(lines)).not.toContain("stack");
  });

  it("any other error stays an error, with what it was", () => {
    const { auth, lines } = capture();
    auth.error(new Error("the session's key does not open it"));
    expect(lines).toEqual([expect.objectContaining({ level: 50, msg: "auth error", type: "Error" })]);
    expect(lines[0].err?.message).toBe("the session's key does not open it");
  });
});
