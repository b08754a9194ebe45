import fs from "node:fs";

/**
 * CPU and memory of the desk's processes while the load runs, read from /proc once a second: every process under
 * the stack's root process (grouped by the root's child that started it: the sandbox, the consumer, each app
 * instance), and the database server's backends serving the desk's database.
 */
const TICKS = 100; // USER_HZ on Linux
const PAGE = 4096;

function stat(pid: number): { ppid: number; pgrp: number; cpu: number; rss: number } | undefined {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), pgrp: Number(f[2]), cpu: (Number(f[11]) + Number(f[12])) / TICKS, rss: Number(f[21]) * PAGE };
  } catch {
    return undefined; // gone
  }
}

function label(pid: number): string {
  let cmd = "";
  try {
    cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "other";
  }
  if (cmd.includes("server/sandbox/main.ts")) return "sandbox";
  if (cmd.includes("server/events/main.ts")) return "consumer + jobs";
  if (cmd.includes("nginx")) return "nginx";
  const port = /(?:-p|--port)\s+(\d+)/.exec(cmd)?.[1];
  if (cmd.includes("next")) return port ? `app :${port}` : "app";
  return cmd.slice(0, 40);
}

export interface ResourceFigures {
  name: string;
  cpuPercent: number;
  peakRssMb: number;
}

interface Seen {
  group: string;
  firstCpu: number;
  lastCpu: number;
}

export class Resources {
  private readonly seen = new Map<number, Seen>();
  private readonly labels = new Map<number, string>();
  private readonly peak = new Map<string, number>();
  private startedAt = 0;
  private endedAt = 0;
  private timer?: NodeJS.Timeout;

  /**
   * `rootPid`: the process that started the desk's process groups; `groupName`: a group's name when the caller knows
   * it (the cluster's members), else the command of the group's first process is read. Groups are process groups.
   */
  constructor(
    private readonly rootPid: number,
    private readonly dbPids: () => Promise<number[]>,
    private readonly groupName: (pgid: number) => string | undefined = () => undefined,
  ) {}

  private nameOf(pgrp: number): string {
    const known = this.groupName(pgrp);
    if (known) return known;
    if (!this.labels.has(pgrp)) this.labels.set(pgrp, label(pgrp));
    return this.labels.get(pgrp)!;
  }

  /** Each process of the stack (and each backend) by pid: its group, CPU seconds and resident memory now. */
  private async sample(): Promise<Map<number, { group: string; cpu: number; rss: number }>> {
    const all = new Map<number, ReturnType<typeof stat>>();
    for (const name of fs.readdirSync("/proc")) if (/^\d+$/.test(name)) all.set(Number(name), stat(Number(name)));
    // A process of the stack: one whose parents lead to the root, outside the root's own process group.
    const own = all.get(this.rootPid)?.pgrp;
    const member = new Map<number, boolean>();
    const inStack = (pid: number): boolean => {
      if (member.has(pid)) return member.get(pid)!;
      const s = all.get(pid);
      const m = !s || pid <= 1 ? false : s.ppid === this.rootPid ? true : inStack(s.ppid);
      member.set(pid, m);
      return m;
    };
    const find = (pid: number) => {
      const s = all.get(pid);
      return s && s.pgrp !== own && inStack(pid) ? this.nameOf(s.pgrp) : undefined;
    };
    const out = new Map<number, { group: string; cpu: number; rss: number }>();
    for (const [pid, s] of all) {
      const g = s && find(pid);
      if (g && s) out.set(pid, { group: g, cpu: s.cpu, rss: s.rss });
    }
    for (const pid of await this.dbPids().catch(() => [])) {
      const s = all.get(pid);
      if (s) out.set(pid, { group: "PostgreSQL backends", cpu: s.cpu, rss: s.rss });
    }
    return out;
  }

  private take(now: Map<number, { group: string; cpu: number; rss: number }>, first: boolean) {
    const rss = new Map<string, number>();
    for (const [pid, v] of now) {
      const seen = this.seen.get(pid);
      // A process that appeared during the run (a restart, a new backend) counts from zero.
      if (!seen) this.seen.set(pid, { group: v.group, firstCpu: first ? v.cpu : 0, lastCpu: v.cpu });
      else seen.lastCpu = v.cpu;
      rss.set(v.group, (rss.get(v.group) ?? 0) + v.rss);
    }
    for (const [g, r] of rss) this.peak.set(g, Math.max(this.peak.get(g) ?? 0, r));
    this.endedAt = performance.now();
  }

  async start(): Promise<void> {
    this.take(await this.sample(), true);
    this.startedAt = performance.now();
    this.timer = setInterval(() => void this.sample().then((s) => this.take(s, false)), 1_000);
  }

  /** Average CPU (100 % = one core) and peak resident memory of each group since `start`. */
  stop(): ResourceFigures[] {
    clearInterval(this.timer);
    const seconds = (this.endedAt - this.startedAt) / 1000;
    const cpu = new Map<string, number>();
    for (const s of this.seen.values()) cpu.set(s.group, (cpu.get(s.group) ?? 0) + (s.lastCpu - s.firstCpu));
    return [...cpu]
      .map(([name, c]) => ({ name, cpuPercent: seconds > 0 ? (100 * c) / seconds : NaN, peakRssMb: (this.peak.get(name) ?? 0) / 2 ** 20 }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}
