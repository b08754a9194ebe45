import { describe, expect, it } from "vitest";
import {
  filterPatch,
  hidePatch,
  resolveUpdater,
  sortingState,
  sortPatch,
  visibilityState,
  withSortable,
} from "@/components/data-table/table-state";

describe("the data table's state transitions", () => {
  it("turns the URL's sort into TanStack's sorting state and back", () => {
    expect(sortingState(undefined)).toEqual([]);
    expect(sortingState({ id: "name", desc: true })).toEqual([{ id: "name", desc: true }]);
    const current = sortingState({ id: "name", desc: false });
    expect(sortPatch(current, [{ id: "email", desc: true }], ["name", "email"])).toEqual({
      sort: { id: "email", desc: true },
      cursor: undefined,
      prev: [],
    });
    expect(sortPatch(current, (old) => [{ ...old[0], desc: true }], ["name"])).toMatchObject({ sort: { id: "name", desc: true } });
    // Removing the sort goes back to the server's default order.
    expect(sortPatch(current, [], ["name"])).toMatchObject({ sort: undefined });
  });

  it("never sorts on a column the server does not sort by, and starts paging again on a new order", () => {
    expect(sortPatch([], [{ id: "status", desc: false }], ["name"])).toEqual({ sort: undefined, cursor: undefined, prev: [] });
    expect(
      sortPatch(
        [],
        [
          { id: "name", desc: false },
          { id: "email", desc: true },
        ],
        ["name", "email"],
      ).sort,
    ).toEqual({ id: "name", desc: false });
  });

  it("offers sorting on the sortable columns only, whatever the column definition says", () => {
    const columns = withSortable([{ id: "name" }, { id: "status", enableSorting: true }, { header: "no id" }], ["name"]);
    expect(columns.map((c) => c.enableSorting)).toEqual([true, false, false]);
    expect(withSortable([{ id: "name" }], []).map((c) => c.enableSorting)).toEqual([false]);
  });

  it("turns the hidden columns into a visibility state and back", () => {
    const visibility = visibilityState(["price", "fees"]);
    expect(visibility).toEqual({ price: false, fees: false });
    expect(hidePatch(visibility, (old) => ({ ...old, price: true }))).toEqual({ hide: ["fees"] });
    expect(hidePatch(visibility, { price: false, fees: false, side: false })).toEqual({ hide: ["price", "fees", "side"] });
    expect(hidePatch({}, {})).toEqual({ hide: [] });
  });

  it("sends a filter change back to the first page", () => {
    expect(filterPatch({ side: "buy" })).toEqual({ side: "buy", cursor: undefined, prev: [] });
    expect(resolveUpdater((n: number) => n + 1, 1)).toBe(2);
    expect(resolveUpdater(5, 1)).toBe(5);
  });
});
