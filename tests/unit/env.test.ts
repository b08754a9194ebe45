import { describe, expect, it } from "vitest";
import { EMBEDDED_MASTER_OPTION_LEVEL, isDemoMode, masterOptionLevel, parseEnv, upstreamConfig } from "@/lib/env";
import { MASTER_OPTION_LEVEL } from "@/server/sandbox/account-store";
import { publicBaseUrl, statusMailOff } from "@/server/status-mail/config";

describe("configuration", () => {
  it("defaults to the embedded sandbox in demo mode", () => {
    const e = parseEnv({});
    expect(isDemoMode(e)).toBe(true);
    expect(upstreamConfig(e)).toMatchObject({
      kind: "sandbox",
      baseUrl: "http://127.0.0.1:4100",
      appKey: "brokerdesk-demo-key",
      algorithm: "HMAC-SHA256",
      pathStyle: "resource",
    });
    expect(e.SESSION_MAX_AGE_HOURS).toBe(8);
  });

  it("a real upstream turns demo mode (and demo users) off and needs its credentials", () => {
    expect(() => parseEnv({ BROKER_BASE_URL: "https://broker.example.com" })).toThrow(/BROKER_APP_KEY and BROKER_APP_SECRET are required/);
    const e = parseEnv({
      BROKER_BASE_URL: "https://broker.example.com",
      BROKER_APP_KEY: "k",
      BROKER_APP_SECRET: "s",
      BROKER_PATH_STYLE: "legacy",
    });
    expect(isDemoMode(e)).toBe(false);
    expect(upstreamConfig(e)).toMatchObject({ kind: "external", baseUrl: "https://broker.example.com", pathStyle: "legacy" });
  });

  it("the activities sweep: a round a minute at 5 calls a second, 400 days back; an interval under a second is refused", () => {
    expect(parseEnv({})).toMatchObject({ ACTIVITIES_SWEEP_INTERVAL_MS: 60_000, ACTIVITIES_SWEEP_RATE: 5, ACTIVITIES_SWEEP_DAYS: 400 });
    expect(parseEnv({ ACTIVITIES_SWEEP_RATE: "2.5", ACTIVITIES_SWEEP_INTERVAL_MS: "1000" })).toMatchObject({
      ACTIVITIES_SWEEP_RATE: 2.5,
      ACTIVITIES_SWEEP_INTERVAL_MS: 1000,
    });
    expect(() => parseEnv({ ACTIVITIES_SWEEP_INTERVAL_MS: "999" })).toThrow(/ACTIVITIES_SWEEP_INTERVAL_MS/);
    expect(() => parseEnv({ ACTIVITIES_SWEEP_RATE: "0" })).toThrow(/ACTIVITIES_SWEEP_RATE/);
  });

  it("AUTH_URL, the desk's public address, makes the status mails' links; off the embedded defaults without it they never name localhost", () => {
    const secret = { AUTH_SECRET: "a-test-secret-of-enough-length" };
    expect(() => parseEnv({ AUTH_URL: "desk.example.com" })).toThrow(/AUTH_URL/);
    expect(() => parseEnv({ AUTH_URL: "ftp://desk.example.com" })).toThrow(/AUTH_URL: must be an http/);
    // Auth.js takes a path too (its routes' base): the links use the origin.
    expect(publicBaseUrl(parseEnv({ AUTH_URL: "https://desk.example.com/api/auth" }))).toBe("https://desk.example.com");
    // The embedded defaults run on one machine: localhost on PORT.
    expect(publicBaseUrl(parseEnv({ PORT: "3100" }))).toBe("http://localhost:3100");
    expect(statusMailOff(parseEnv(secret))).toBeUndefined();
    const upstream = { BROKER_BASE_URL: "https://broker.example.com", BROKER_APP_KEY: "k", BROKER_APP_SECRET: "s", ...secret };
    expect(publicBaseUrl(parseEnv(upstream))).toBeUndefined();
    expect(statusMailOff(parseEnv(upstream))).toMatch(/AUTH_URL .* is not set/);
    const configured = parseEnv({ ...upstream, AUTH_URL: "https://desk.example.com:8443/" });
    expect(publicBaseUrl(configured)).toBe("https://desk.example.com:8443");
    expect(statusMailOff(configured)).toBeUndefined();
    expect(statusMailOff(parseEnv({ AUTH_URL: "https://desk.example.com" }))).toMatch(/AUTH_SECRET is not set/);
  });

  it("names every invalid variable", () => {
    expect(() => parseEnv({ BROKER_SIGNATURE_ALGORITHM: "MD5", PORT: "x" })).toThrow(
      /BROKER_SIGNATURE_ALGORITHM[\s\S]*PORT|PORT[\s\S]*BROKER_SIGNATURE_ALGORITHM/,
    );
  });

  it("the master option level comes from configuration, defaulting on the embedded sandbox to the level its seed uses", () => {
    expect(EMBEDDED_MASTER_OPTION_LEVEL).toBe(MASTER_OPTION_LEVEL);
    expect(masterOptionLevel(parseEnv({}))).toEqual({ level: "LV3", source: "sandbox" });
    expect(masterOptionLevel(parseEnv({ BROKER_MASTER_OPTION_LEVEL: "LV2" }))).toEqual({ level: "LV2", source: "config" });
    const external = parseEnv({ BROKER_BASE_URL: "https://broker.example.com", BROKER_APP_KEY: "k", BROKER_APP_SECRET: "s" });
    expect(masterOptionLevel(external)).toEqual({ source: "unknown" });
  });
});
