#!/usr/bin/env node
// Builds the app (next build) when its sources changed since the last build: what the end-to-end run would do first.
import { buildIfStale } from "./lib.mjs";

process.exit(buildIfStale() ? 0 : 1);
