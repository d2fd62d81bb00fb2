#!/usr/bin/env bun
import { runCli } from "./cli/main";

process.exitCode = await runCli(process.argv.slice(2));
