import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { writePrivateFile } from "../config";
import { deskError } from "../errors";
import type { DeskClient } from "../http";
import type { JsonSchema } from "./schema-args";

/**
 * The desk's skills listing (`GET /api/skills`), what the tool commands are made from, cached a profile for an
 * hour (BROKERDESK_SKILLS_TTL_S) in the config directory; `--refresh-skills` or `brokerdesk skills --refresh`
 * reads it again. When the desk cannot be read, a stale copy still makes the commands.
 */

export type Skill = {
  name: string;
  tool: string;
  title: string;
  description: string;
  read_only: boolean;
  destructive: boolean;
  input_schema: JsonSchema;
  output_schema: JsonSchema;
};

type Cached = { desk: string; fetched_at: string; skills: Skill[] };

const ttlMs = () => {
  const s = Number(process.env.BROKERDESK_SKILLS_TTL_S);
  return (Number.isFinite(s) && s >= 0 ? s : 3600) * 1000;
};

export const cacheFile = (dir: string, profile: string) => path.join(dir, "cache", `skills-${profile}.json`);

export function readCachedSkills(dir: string, profile: string, desk: string): { skills: Skill[]; fresh: boolean } | undefined {
  try {
    const cached = JSON.parse(readFileSync(cacheFile(dir, profile), "utf8")) as Cached;
    if (cached.desk !== desk || !Array.isArray(cached.skills)) return undefined;
    return { skills: cached.skills, fresh: Date.now() - Date.parse(cached.fetched_at) < ttlMs() };
  } catch {
    return undefined;
  }
}

export function forgetSkills(dir: string, profile: string): void {
  rmSync(cacheFile(dir, profile), { force: true });
}

export async function fetchSkills(client: DeskClient, dir: string, profile: string): Promise<Skill[]> {
  const answer = await client.send({ method: "GET", path: "/api/skills", session: true, retry: "safe" });
  if (answer.status !== 200) throw deskError(answer.status, answer.body);
  const skills = (answer.body as { skills?: Skill[] })?.skills;
  if (!Array.isArray(skills)) throw deskError(502, { error: "BAD_LISTING", message: "The desk's skills listing has no skills." });
  const cached: Cached = { desk: client.desk, fetched_at: new Date().toISOString(), skills };
  writePrivateFile(cacheFile(dir, profile), JSON.stringify(cached));
  return skills;
}
