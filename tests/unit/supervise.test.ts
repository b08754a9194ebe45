import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { supervise } from "../../scripts/lib.mjs";
import { until } from "../helpers/until";

/**
 * `npm start`'s supervisor (scripts/lib.mjs): a process that exits on its own is started again, with a growing delay;
 * one stopped through the supervisor stays stopped.
 */
describe("supervise", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "supervise-"));
  const file = path.join(dir, "starts");
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const starts = () => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").length : 0);

  it("starts a process that died again, and not one it stopped", async () => {
    // Each run marks its start and exits at once with an error: a crash loop.
    const group = supervise(
      "probe",
      process.execPath,
      ["-e", `require("fs").appendFileSync(${JSON.stringify(file)}, "x"); process.exit(3)`],
      {
        stableMs: 60_000,
      },
    );
    try {
      // The first run, then restarts after 1 s and 2 s.
      await until(() => starts() >= 3, 30_000, "two restarts");
    } finally {
      group.stopGroup();
    }
    const stoppedAt = starts();
    // Longer than the next delay (4 s): no restart comes after the stop.
    await new Promise((r) => setTimeout(r, 5_000));
    expect(starts()).toBe(stoppedAt);
  }, 60_000);
});
