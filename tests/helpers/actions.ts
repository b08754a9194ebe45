import { vi } from "vitest";
import type { ActionResult } from "@/lib/errors";
import { logger } from "@/server/log";

/** An action's data; a refusal fails the test with its message. */
export function dataOf<T>(result: ActionResult<T>): T {
  if (!result.ok) throw new Error(result.serverError);
  return result.data;
}

/** What `work` answers, and every line it logs (info, warn, error) meanwhile instead of writing it. */
export async function withLogs<T>(work: () => Promise<T>): Promise<{ result: T; logged: unknown[] }> {
  const logged: unknown[] = [];
  const spies = (["info", "warn", "error"] as const).map((level) =>
    vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => void logged.push(args)) as never),
  );
  try {
    return { result: await work(), logged };
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
}
