import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configDir, normaliseDesk, profileName, readConfig, sessionState, writeConfig } from "@/cli/src/config";

const temp = () => mkdtempSync(path.join(tmpdir(), "brokerdesk-config-"));
const mode = (p: string) => statSync(p).mode & 0o777;

describe("the profiles file", () => {
  it("is written 0600 in a 0700 directory, whatever the umask", () => {
    // A process of its own with umask 000 (the most open one): test workers are threads, which cannot set the umask.
    const dir = path.join(temp(), "nested", "brokerdesk");
    const config = { current: "a", profiles: { a: { desk: "https://desk.test", secret_key: "bdsk_x" } } };
    const script = `import { writeConfig } from ${JSON.stringify(path.resolve("cli/src/config.ts"))};
      writeConfig(${JSON.stringify(config)}, ${JSON.stringify(dir)});`;
    const run = spawnSync("sh", ["-c", 'umask 000 && exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, "config.json"))).toBe(0o600);
    expect(readConfig(dir)).toEqual(config);
  });

  it("narrows a directory and a file that others could read", () => {
    const dir = temp();
    chmodSync(dir, 0o755);
    writeFileSync(path.join(dir, "config.json"), "{}", { mode: 0o644 });
    writeConfig({ profiles: {} }, dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, "config.json"))).toBe(0o600);
  });

  it("reads as empty when absent and refuses a broken file", () => {
    expect(readConfig(temp())).toEqual({ profiles: {} });
    const dir = temp();
    writeFileSync(path.join(dir, "config.json"), "{nope");
    expect(() => readConfig(dir)).toThrow(/not valid JSON/);
  });

  it("lives in BROKERDESK_CONFIG_DIR, else XDG_CONFIG_HOME/brokerdesk, else ~/.config/brokerdesk", () => {
    expect(configDir({ BROKERDESK_CONFIG_DIR: "/x/y", XDG_CONFIG_HOME: "/z" })).toBe("/x/y");
    expect(configDir({ XDG_CONFIG_HOME: "/z" })).toBe("/z/brokerdesk");
    expect(configDir({})).toMatch(/\.config\/brokerdesk$/);
  });
});

describe("choosing a profile", () => {
  const config = { current: "chosen", profiles: {} };
  it("takes --profile, then BROKERDESK_PROFILE, then the one in use, then default", () => {
    expect(profileName(config, "flag", { BROKERDESK_PROFILE: "env" })).toBe("flag");
    expect(profileName(config, undefined, { BROKERDESK_PROFILE: "env" })).toBe("env");
    expect(profileName(config, undefined, {})).toBe("chosen");
    expect(profileName({ profiles: {} }, undefined, {})).toBe("default");
    expect(() => profileName(config, "../etc", {})).toThrow(/not a profile name/);
  });

  it("knows a session as none, valid or expired", () => {
    const now = Date.parse("2026-01-01T12:00:00Z");
    expect(sessionState(undefined, now)).toBe("none");
    expect(sessionState({ desk: "d" }, now)).toBe("none");
    expect(sessionState({ desk: "d", session: "bdcs_x", session_expires_at: "2026-01-01T12:00:01Z" }, now)).toBe("valid");
    expect(sessionState({ desk: "d", session: "bdcs_x", session_expires_at: "2026-01-01T12:00:00Z" }, now)).toBe("expired");
  });

  it("keeps a desk's URL as http(s) without a trailing slash", () => {
    expect(normaliseDesk("https://desk.test/")).toBe("https://desk.test");
    expect(normaliseDesk("http://127.0.0.1:3000/desk/")).toBe("http://127.0.0.1:3000/desk");
    expect(() => normaliseDesk("ftp://desk.test")).toThrow(/http or https/);
    expect(() => normaliseDesk("desk")).toThrow(/not a URL/);
  });
});
