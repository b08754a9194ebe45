import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_LABELS, auditActionLabel } from "@/lib/audit-actions";

/** Every audit action name the desk's server writes (the sandbox excluded), read from its sources. */
function actionNames(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "sandbox") walk(full);
      } else if (entry.name.endsWith(".ts")) {
        const text = fs.readFileSync(full, "utf8");
        for (const m of text.matchAll(/\b(?:name|action):\s*"([a-z_]+\.[a-z_.]+)"/g)) names.add(m[1]);
      }
    }
  };
  walk(path.resolve(import.meta.dirname, "../../server"));
  return names;
}

describe("audit action names in words", () => {
  it("every action the server audits has its words", () => {
    const names = [...actionNames()];
    expect(names.length).toBeGreaterThan(30);
    expect(names.filter((n) => !(n in AUDIT_ACTION_LABELS) && !n.startsWith("tools."))).toEqual([]);
  });

  it("a tool call names its tool; an unknown action is shown as it is", () => {
    expect(auditActionLabel("orders.exercise")).toBe("Exercised an option (or marked it not to be)");
    expect(auditActionLabel("tools.cancel_order")).toBe("Assistant tool: cancel order");
    expect(auditActionLabel("new.thing")).toBe("new.thing");
  });
});
