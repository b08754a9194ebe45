import { describe, expect, it } from "vitest";
import { accessOf, builtInPermissions, can, mainJobOf } from "@/lib/auth/permissions";
import { roleLabel } from "@/lib/schemas/approvals";
import { roleFormSchema, roleKeyOf } from "@/lib/schemas/roles";

describe("roles", () => {
  it("a custom role's key is its name in lower case, hyphenated; in words again it reads as the name", () => {
    expect(roleKeyOf("Order viewer")).toBe("order-viewer");
    expect(roleKeyOf("  Night desk (HK) ")).toBe("night-desk-hk");
    expect(roleKeyOf("2nd line")).toBe("nd-line");
    expect(roleLabel("order-viewer")).toBe("Order viewer");
    expect(roleLabel("operations")).toBe("Operations");
  });

  it("the form refuses a name with no letter to start a key, and keeps the permissions in the table's order", () => {
    expect(roleFormSchema.safeParse({ label: "12", description: "", permissions: ["orders:read"] }).success).toBe(false);
    const ok = roleFormSchema.parse({ label: "Viewer", description: "", permissions: ["market:read", "orders:read"] });
    expect(ok.permissions).toEqual(["orders:read", "market:read"]);
    expect(roleFormSchema.safeParse({ label: "Viewer", description: "", permissions: ["orders:fly"] }).success).toBe(false);
    expect(roleFormSchema.safeParse({ label: "Viewer", description: "", permissions: [] }).success).toBe(false);
  });

  it("a custom role's access is its row's permissions (unknown names dropped); a role in neither has none", () => {
    const custom = accessOf("viewer", { roleLabel: "Viewer", rolePermissions: ["orders:read", "orders:fly"] });
    expect(custom).toEqual({ role: "viewer", roleLabel: "Viewer", permissions: ["orders:read"] });
    expect(can(custom, "orders:read")).toBe(true);
    expect(can(custom, "orders:modify")).toBe(false);
    expect(accessOf("viewer", { roleLabel: null, rolePermissions: null })).toBeUndefined();
    expect(accessOf("support")?.permissions).toEqual(builtInPermissions("support"));
    expect(mainJobOf(custom!)).toBe("Your role may: read orders and executions (the blotter).");
  });
});
