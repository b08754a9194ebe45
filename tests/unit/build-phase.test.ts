import { afterEach, describe, expect, it } from "vitest";
import { refuseWhileBuilding } from "@/server/build-phase";

describe("refuseWhileBuilding", () => {
  const phase = process.env.NEXT_PHASE;
  afterEach(() => {
    if (phase === undefined) delete process.env.NEXT_PHASE;
    else process.env.NEXT_PHASE = phase;
  });

  it("refuses in next build, naming what was reached", () => {
    process.env.NEXT_PHASE = "phase-production-build";
    expect(() => refuseWhileBuilding("The upstream")).toThrow(/The upstream was reached while the app was being built/);
  });

  it("lets a started server through", () => {
    process.env.NEXT_PHASE = "phase-production-server";
    expect(() => refuseWhileBuilding("The upstream")).not.toThrow();
    delete process.env.NEXT_PHASE;
    expect(() => refuseWhileBuilding("The database")).not.toThrow();
  });
});
