import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { onlyFile, specFiles, splitSpecs } from "../../scripts/e2e-shards.mjs";

type Shard = { files: string[]; seconds: number };

/** The e2e suite's split into shards that run at once (scripts/e2e.mjs): by measured seconds, every spec once. */
describe("e2e shards", () => {
  it("puts every spec file of e2e/ in exactly one shard", () => {
    const files: string[] = specFiles();
    expect(files.length).toBeGreaterThan(10);
    const shards: Shard[] = splitSpecs(files, 2);
    expect(shards.flatMap((s) => s.files).sort()).toEqual([...files].sort());
  });

  it("balances by the measured seconds, a file not measured counting as the median", () => {
    const seconds = { "e2e/a.spec.ts": 300, "e2e/b.spec.ts": 200, "e2e/c.spec.ts": 100, "e2e/d.spec.ts": 100, "e2e/e.spec.ts": 100 };
    const shards: Shard[] = splitSpecs([...Object.keys(seconds), "e2e/new.spec.ts"], 2, seconds);
    // 300 + 100 + 100 (the new one at the median, 100) against 200 + 100 + 100: a split by file count would give 600 / 300.
    expect(shards.map((s) => s.seconds).sort()).toEqual([400, 500]);
    expect(shards.find((s) => s.files.includes("e2e/a.spec.ts"))!.files).not.toContain("e2e/b.spec.ts");
  });

  it("filters one file and not another whose name ends the same", () => {
    const pattern = new RegExp(onlyFile("e2e/stream.spec.ts"));
    expect(pattern.test("/work/e2e/stream.spec.ts")).toBe(true);
    expect(pattern.test("/work/e2e/upstream.spec.ts")).toBe(false);
    expect(pattern.test("/work/e2e/streamXspec.ts")).toBe(false);
  });
});
