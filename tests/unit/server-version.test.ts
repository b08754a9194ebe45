import { describe, expect, it } from "vitest";
import { MIN_SERVER_VERSION, requireServerVersion } from "@/server/db/engine";

/** The migrator refuses a PostgreSQL server older than the books' projection needs (MERGE: 15), naming its version. */
describe("requireServerVersion", () => {
  it("refuses PostgreSQL 14 with both versions in the message", () => {
    expect(() => requireServerVersion({ num: 140011, version: "14.11" })).toThrow(
      "Brokerdesk needs PostgreSQL 15 or later; this server runs PostgreSQL 14.11.",
    );
  });

  it("takes 15 and later (PGlite is 17)", () => {
    expect(MIN_SERVER_VERSION.num).toBe(150000);
    for (const [num, version] of [
      [150000, "15.0"],
      [150020, "15.20"],
      [170004, "17.4"],
    ] as const)
      expect(() => requireServerVersion({ num, version })).not.toThrow();
  });
});
