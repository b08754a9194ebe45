import { afterAll, beforeAll } from "vitest";
import { startEventsFixture, type EventsFixture } from "../events/helpers";
import type { TestEngine } from "./engines";

/**
 * An events fixture (a started sandbox and the app's database, no event consumer) for the describe block this is
 * called in: started before its tests, then `setUp`, both within `timeout`; closed after them. The object answered
 * is filled in place when the fixture has started, so the block's tests and hooks read it directly.
 */
export function useStartedFixture(te: TestEngine, timeout: number, setUp?: (f: EventsFixture) => Promise<unknown>): EventsFixture {
  const f = {} as EventsFixture;
  beforeAll(async () => {
    Object.assign(f, await startEventsFixture(te));
    await setUp?.(f);
  }, timeout);
  afterAll(async () => f.close?.());
  return f;
}
