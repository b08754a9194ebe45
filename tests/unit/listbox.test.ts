import { describe, expect, it } from "vitest";
import { stepActive } from "@/components/form/listbox";

const DOWN = 1;
const UP = -1;

describe("stepActive: the option the arrows make active in an account picker's list", () => {
  // The second of four options disabled (the account the journal's other side took).
  const list = [false, true, false, false];

  it("steps over a disabled option, down and up", () => {
    expect(stepActive(list, 0, DOWN)).toBe(2);
    expect(stepActive(list, 2, UP)).toBe(0);
  });

  it("goes round the ends, over disabled options there too", () => {
    expect(stepActive(list, 3, DOWN)).toBe(0);
    expect(stepActive(list, 0, UP)).toBe(3);
    expect(stepActive([true, false, false, true], 2, DOWN)).toBe(1);
    expect(stepActive([true, false, false, true], 1, UP)).toBe(2);
  });

  it("with none active, starts at the first enabled option going down and the last going up", () => {
    expect(stepActive([true, false, false, true], -1, DOWN)).toBe(1);
    expect(stepActive([true, false, false, true], -1, UP)).toBe(2);
  });

  it("stays on the one enabled option; none when every option is disabled or there is none", () => {
    expect(stepActive([true, false, true], 1, DOWN)).toBe(1);
    expect(stepActive([true, true], -1, DOWN)).toBe(-1);
    expect(stepActive([], -1, UP)).toBe(-1);
  });
});
