import { expect, it, vi } from "vitest";
import { renderSkillsDoc } from "@/server/tools/skills-doc";

vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => null }));

/** docs/skills.md is the registry's own description: stale when a tool changes (`npm run docs:skills` writes it). */
it("docs/skills.md is generated from the tool registry", async () => {
  await expect(renderSkillsDoc()).toMatchFileSnapshot("../../docs/skills.md");
});
