#!/usr/bin/env node
// The CLI is TypeScript run without a build step: tsx compiles it on load (tsconfig: false, so a project's own
// tsconfig in the working directory never changes how the CLI is read).
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../src/main.ts", { parentURL: import.meta.url, tsconfig: false });
process.exitCode = await main(process.argv.slice(2));
