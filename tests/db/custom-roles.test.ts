import { describe, expect, it } from "vitest";
import { builtInPermissions } from "@/lib/auth/permissions";
import type { AppDb } from "@/server/db";
import { createStaff, findStaffById, updateStaff } from "@/server/auth/staff";
import { staffOf } from "@/server/auth/staff-access";
import { accessOfRole, createRole, deleteRole, listRoles, roleOptions, updateRole } from "@/server/roles/roles";
import { authenticateBearer } from "@/server/tokens/bearer";
import { createToken } from "@/server/tokens/tokens";
import { mustEnrol, setRequiredRoles } from "@/server/two-factor/two-factor";
import { testEngines, withEngineDb } from "../helpers/engines";
import { STAFF_PASSWORD } from "../helpers/staff";

/** Custom roles: rows of their own, read with the staff member on every request, refused where they would dangle. */
for (const engine of testEngines()) {
  describe(`custom roles on ${engine.name}`, () => {
    let db: AppDb;
    withEngineDb(engine, async (fresh) => {
      db = fresh;
    });
    let n = 0;
    const admin = async () =>
      (await createStaff(db, { email: `admin${++n}@roles.test`, name: "Admin", role: "admin", password: STAFF_PASSWORD })).id;
    const holder = async (role: string) =>
      (await createStaff(db, { email: `holder${++n}@roles.test`, name: "Holder", role, password: STAFF_PASSWORD })).id;
    /** What a request sees of the staff member: the guard's read (`findStaffById` → `staffOf`). */
    const seen = async (id: string) => staffOf((await findStaffById(db, id))!);

    it("a staff member of a custom role has exactly its permissions, and a change applies at the next read", async () => {
      const by = await admin();
      const { key } = await createRole(db, { label: "Order viewer", description: "Reads the blotter", permissions: ["orders:read"] }, by);
      expect(key).toBe("order-viewer");
      const id = await holder(key);
      expect(await seen(id)).toMatchObject({ role: "order-viewer", roleLabel: "Order viewer", permissions: ["orders:read"] });

      await updateRole(db, key, { label: "Order viewer", description: "", permissions: ["orders:read", "market:read"] }, by);
      expect((await seen(id))?.permissions).toEqual(["orders:read", "market:read"]);
      await updateRole(db, key, { label: "Order viewer", description: "", permissions: ["market:read"] }, by);
      expect((await seen(id))?.permissions).toEqual(["market:read"]);
    });

    it("built-in roles keep the code's table and cannot be changed or deleted", async () => {
      const by = await admin();
      expect((await seen(by))?.permissions).toEqual(builtInPermissions("admin"));
      await expect(
        updateRole(db, "support", { label: "Support", description: "", permissions: ["orders:read"] }, by),
      ).rejects.toMatchObject({
        code: "BUILT_IN_ROLE",
      });
      await expect(deleteRole(db, "support")).rejects.toMatchObject({ code: "BUILT_IN_ROLE" });
      const roles = await listRoles(db);
      expect(roles.filter((r) => r.builtIn).map((r) => r.key)).toEqual(["admin", "compliance", "operations", "support"]);
      expect(roles.find((r) => r.key === "support")?.permissions).toEqual(builtInPermissions("support"));
    });

    it("refuses a second role of the same name, whatever its case", async () => {
      const by = await admin();
      await createRole(db, { label: "Auditor", description: "", permissions: ["audit:read"] }, by);
      await expect(createRole(db, { label: "auditor", description: "", permissions: ["audit:read"] }, by)).rejects.toMatchObject({
        code: "ROLE_EXISTS",
        fieldErrors: { label: "A role with this name already exists" },
      });
      await expect(createRole(db, { label: "Compliance", description: "", permissions: ["audit:read"] }, by)).rejects.toMatchObject({
        code: "ROLE_EXISTS",
      });
    });

    it("a role someone holds cannot be deleted; once nobody does it can, and it is gone from the options", async () => {
      const by = await admin();
      const { key } = await createRole(db, { label: "Desk reader", description: "", permissions: ["accounts:read"] }, by);
      const id = await holder(key);
      await updateStaff(db, id, { disabled: true });
      await expect(deleteRole(db, key)).rejects.toMatchObject({ code: "ROLE_IN_USE" });
      expect((await listRoles(db)).find((r) => r.key === key)).toMatchObject({ holders: [], disabledHolders: 1 });
      await updateStaff(db, id, { role: "support" });
      await deleteRole(db, key);
      expect((await roleOptions(db)).map((o) => o.value)).not.toContain(key);
      expect(await accessOfRole(db.engine, key)).toBeUndefined();
    });

    it("a staff member cannot be given a role that does not exist (the foreign key)", async () => {
      await expect(holder("no-such-role")).rejects.toThrow();
      const id = await holder("support");
      await expect(updateStaff(db, id, { role: "no-such-role" })).rejects.toThrow();
      expect((await seen(id))?.role).toBe("support");
    });

    it("two-factor sign-in can be required of a custom role", async () => {
      const by = await admin();
      const { key } = await createRole(db, { label: "Night desk", description: "", permissions: ["orders:read"] }, by);
      const id = await holder(key);
      expect(await mustEnrol(db, { id, role: key })).toBe(false);
      expect(await setRequiredRoles(db, [key, "gone-role"], by)).toEqual([key]);
      expect(await mustEnrol(db, { id, role: key })).toBe(true);
    });

    it("an access token's caller carries the owner's custom role as it is at the call", async () => {
      const by = await admin();
      const { key } = await createRole(db, { label: "Assistant reader", description: "", permissions: ["orders:read", "tokens:own"] }, by);
      const id = await holder(key);
      const owner = (await seen(id))!;
      const token = await createToken(db, owner, { name: "bot", access: "read", expiresInDays: "7" });
      const call = () =>
        authenticateBearer(new Request("http://desk.test/api/mcp", { headers: { authorization: `Bearer ${token.secret}` } }), { db });
      expect(await call()).toMatchObject({ ok: true, caller: { staff: { role: key, permissions: ["orders:read", "tokens:own"] } } });
      await updateRole(db, key, { label: "Assistant reader", description: "", permissions: ["tokens:own"] }, by);
      expect(await call()).toMatchObject({ ok: true, caller: { staff: { permissions: ["tokens:own"] } } });
    });
  });
}
