import { describe, expect, it } from "vitest";
import { canonicalQuery, sign, stringToSign } from "@/cli/src/signing";

/**
 * The contract's recipe with fixed vectors. The expected signatures were computed outside Node:
 *   printf '%s' "$STRING_TO_SIGN" | openssl dgst -sha256 -hmac 'bdsk_test-secret' -binary | base64
 */
const SECRET = "bdsk_test-secret";

describe("the CLI request signature", () => {
  it("signs a POST with a query and a body as the contract's vector", () => {
    const parts = {
      method: "post",
      path: "/api/skills/find-orders",
      query: "?b=x+y&a=2&a=1&c=%C3%A9",
      body: '{"view":"open"}',
      timestamp: "1767225600000",
      nonce: "n0nce_0123456789-abc",
    };
    expect(stringToSign(parts)).toBe(
      [
        "POST",
        "/api/skills/find-orders",
        "a=1&a=2&b=x%20y&c=%C3%A9",
        "c3cfcdeed6ce178446217fd9f1f509c48caf4eb71b147ba5057aeff15fbd4139",
        "1767225600000",
        "n0nce_0123456789-abc",
      ].join("\n"),
    );
    expect(sign(SECRET, parts)).toBe("qYYZur7UVQgCkfRZGcxfFXTnMxk3y3phoUOIpmh5s4M=");
  });

  it("signs a GET without query or body: empty query line, the empty string's hash", () => {
    const parts = { method: "GET", path: "/api/skills", timestamp: "1767225600000", nonce: "abcdefghijklmnop" };
    expect(stringToSign(parts).split("\n")).toEqual([
      "GET",
      "/api/skills",
      "",
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "1767225600000",
      "abcdefghijklmnop",
    ]);
    expect(sign(SECRET, parts)).toBe("t/oCDtveQym/WHsv5PS2aYkGSNZt8Fd4VZLVzgOs1p0=");
    // The same bytes as a Uint8Array body sign the same.
    expect(sign(SECRET, { ...parts, body: new Uint8Array() })).toBe(sign(SECRET, parts));
  });

  it("canonicalises the query: encoded with encodeURIComponent, sorted by key then value", () => {
    expect(canonicalQuery("")).toBe("");
    expect(
      canonicalQuery(
        new URLSearchParams([
          ["z", "1"],
          ["a", "b&c"],
          ["a", "!"],
        ]),
      ),
    ).toBe("a=!&a=b%26c&z=1");
    expect(canonicalQuery("?q=50%25 off&q=%2F")).toBe("q=%2F&q=50%25%20off");
  });

  it("is the method, path, canonical query, body hash, timestamp and nonce, one a line", () => {
    const parts = { method: "post", path: "/api/skills/x", query: "?b=2&a=%20z&a=1", body: "{}", timestamp: "1", nonce: "n".repeat(16) };
    const bracesSha256 = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
    // An encoded value sorts before a digit; a {} body's line is its SHA-256.
    const lines = ["POST", "/api/skills/x", "a=%20z&a=1&b=2", bracesSha256, "1", "n".repeat(16)];
    expect(stringToSign(parts).split("\n")).toEqual(lines);
    expect(sign("bdsk_secret", parts)).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it("changes with every part", () => {
    const base = { method: "POST", path: "/api/cli/login", body: '{"code":"123456"}', timestamp: "1", nonce: "abcdefghijklmnop" };
    const signature = sign(SECRET, base);
    for (const changed of [
      { ...base, method: "PUT" },
      { ...base, path: "/api/cli/login/" },
      { ...base, query: "a=1" },
      { ...base, body: '{"code":"123457"}' },
      { ...base, timestamp: "2" },
      { ...base, nonce: "abcdefghijklmnoq" },
    ])
      expect(sign(SECRET, changed)).not.toBe(signature);
    expect(sign("bdsk_other", base)).not.toBe(signature);
  });
});
