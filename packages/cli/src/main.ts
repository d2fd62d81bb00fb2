#!/usr/bin/env node
import { runClient } from "./cli";

process.exitCode = await runClient(process.argv.slice(2));
