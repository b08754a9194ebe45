import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { roleAccess } from "../helpers/staff";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as skillsGet } from "@/app/api/skills/route";
import { POST as skillPost } from "@/app/api/skills/[name]/route";
import { createStaff } from "@/server/auth/staff";
import { createToken } from "@/server/tokens/tokens";
import { testEngines } from "../helpers/engines";
import { useProcessFixture, type EventsFixture } from "../events/helpers";

/**
 * The spec's 18 skills endpoints against a started sandbox, each answer checked with a JSON Schema validator against
 * the output schema the listing (`GET /api/skills`) publishes, and each request against its input schema.
 */
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
vi.mock("@/server/auth/guard", () => ({ currentStaff: async () => null }));

const ORIGIN = "http://desk.test";
interface Listed {
  name: string;
  input_schema: object;
  output_schema: object;
}

describe("the spec's skills endpoints", () => {
  const fixture = useProcessFixture(testEngines()[0]);
  let f: EventsFixture;
  let secret = "";
  let listing: Map<string, Listed>;
  const validator = new AjvJsonSchemaValidator();

  beforeAll(async () => {
    f = fixture();
    const u = await createStaff(f.db, {
      email: "skills@contract.test",
      name: "Skills",
      role: "operations",
      password: "a long enough password",
    });
    secret = (
      await createToken(
        f.db,
        { id: u.id, email: u.email, name: u.name, ...roleAccess("operations") },
        { name: "contract", access: "read_write", expiresInDays: "7" },
      )
    ).secret;
    const res = await skillsGet(new Request(`${ORIGIN}/api/skills`, { headers: { authorization: `Bearer ${secret}` } }));
    listing = new Map(((await res.json()) as { skills: Listed[] }).skills.map((s) => [s.name, s]));
  });

  /** Calls a skill after checking the arguments against its published input schema; answers the checked output. */
  async function skill<T = Record<string, unknown>>(name: string, body: Record<string, unknown> = {}): Promise<T> {
    const listed = listing.get(name);
    expect(listed, `${name} is listed`).toBeDefined();
    const input = validator.getValidator(listed!.input_schema)(body);
    expect(input.errorMessage, `${name} input`).toBeUndefined();
    const res = await skillPost(
      new Request(`${ORIGIN}/api/skills/${name}`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ name }) },
    );
    const answer = await res.json();
    expect(res.status, `${name}: ${JSON.stringify(answer)}`).toBe(200);
    const output = validator.getValidator(listed!.output_schema)(answer);
    expect(output.errorMessage, `${name} output`).toBeUndefined();
    return answer as T;
  }

  it("market data: NOII bars and snapshot, gainers and losers, most active", async () => {
    expect(
      (await skill<{ bars: unknown[] }>("stock-noii-bars", { symbol: "AAPL", imbalance_action_type: "PRE_CLOSE" })).bars,
    ).toBeInstanceOf(Array);
    expect(await skill("stock-noii-snapshot", { symbol: "AAPL" })).toHaveProperty("symbol", "AAPL");
    const gainers = await skill<{ rows: { change_ratio: string }[] }>("stock-gainers-losers", { direction: "DESC" });
    const losers = await skill<{ rows: { change_ratio: string }[] }>("stock-gainers-losers", { direction: "ASC" });
    expect(Number(gainers.rows[0].change_ratio)).toBeGreaterThanOrEqual(Number(losers.rows[0].change_ratio));
    expect((await skill<{ rows: unknown[] }>("stock-most-active", { rank_type: "VOLUME" })).rows.length).toBeGreaterThan(0);
  });

  it("instruments: company profile, analyst rating and target price; futures classes, products and contracts", async () => {
    for (const name of ["instrument-company-profile", "instrument-analyst-rating", "instrument-analyst-target-price"]) {
      expect((await skill<{ records: unknown[] }>(name, { symbol: "AAPL" })).records.length, name).toBeGreaterThan(0);
    }
    const classes = await skill<{ product_classes: { product_codes?: string[] }[] }>("instrument-futures-product-class");
    const codes = classes.product_classes.flatMap((c) => c.product_codes ?? []);
    const products = await skill<{ products: { code: string }[] }>("instrument-futures-products");
    expect(products.products.map((p) => p.code).sort()).toEqual([...codes].sort());
    const contracts = await skill<{ instruments: { symbol: string; contract_month?: string }[] }>("instrument-futures-list", {
      code: "CL",
    });
    expect(contracts.instruments.map((c) => c.symbol)).toContain("CLmain");
  });

  it("watchlists: create, rename, add, reorder, list, remove, delete", async () => {
    const stock = (symbol: string, sort?: number) => ({ symbol, category: "US_STOCK", ...(sort === undefined ? {} : { sort }) });
    const { watchlist_id } = await skill<{ watchlist_id: string }>("watchlist-create", { name: "Contract list" });
    await skill("watchlist-update", { watchlist_id, name: "Contract list, renamed" });
    await skill("watchlist-instruments-add", { watchlist_id, instruments: [stock("AAPL"), stock("MSFT")] });
    await skill("watchlist-instruments-update", { watchlist_id, instruments: [stock("AAPL", 5), stock("MSFT", 9)] });
    const members = await skill<{ instruments: { symbol: string; sort?: number }[] }>("watchlist-instruments-list", { watchlist_id });
    expect(Object.fromEntries(members.instruments.map((m) => [m.symbol, m.sort]))).toEqual({ AAPL: 5, MSFT: 9 });
    await skill("watchlist-instruments-remove", { watchlist_id, instruments: [stock("MSFT")] });
    const lists = await skill<{ watchlists: { watchlist_id: string; name: string }[] }>("watchlist-list");
    expect(lists.watchlists.find((w) => w.watchlist_id === watchlist_id)?.name).toBe("Contract list, renamed");
    expect(
      (await skill<{ instruments: { symbol: string }[] }>("watchlist-instruments-list", { watchlist_id })).instruments.map((m) => m.symbol),
    ).toEqual(["AAPL"]);
    await skill("watchlist-delete", { watchlist_id });
    expect((await skill<{ watchlists: { watchlist_id: string }[] }>("watchlist-list")).watchlists.map((w) => w.watchlist_id)).not.toContain(
      watchlist_id,
    );
  });
});
