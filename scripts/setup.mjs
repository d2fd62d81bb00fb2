#!/usr/bin/env node
// Installs what `npm start` and `npm test` need on a fresh Debian machine with only Node.js and npm:
// the npm dependencies (Bun among them), Debian's chromium and fonts when no browser is found, and WebKitGTK's
// WebDriver with a virtual display (jobs that name the webkit engine), and Firefox ESR (the gecko engine,
// Thunderbird's renders); with --test
// (npm test) also what the tests start themselves, PostgreSQL among it.
// Plain Node with no dependencies, because it runs before any are installed.
import { execSync, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const log = (m) => console.error(`[setup] ${m}`);
const run = (cmd, opts = {}) => execSync(cmd, { stdio: "inherit", cwd: root, ...opts });
const has = (cmd) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;

function npmDependencies() {
  const marker = join(root, "node_modules", ".package-lock.json");
  const lock = join(root, "package-lock.json");
  const bun = join(root, "node_modules", ".bin", "bun");
  if (existsSync(marker) && existsSync(bun) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  log("installing npm dependencies");
  if (existsSync(marker)) return run("npm install --no-audit --no-fund");
  try {
    run("npm ci --no-audit --no-fund");
  } catch {
    // A registry mirror that lacks some platform builds of an optional dependency makes `npm ci` refuse a
    // lock that `npm install` still resolves; say so, then install from the same lock.
    log("npm ci refused the lock file; installing with npm install instead");
    run("npm install --no-audit --no-fund");
  }
}

function findChromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"])
    if (has(name)) return name;
  return null;
}

function debianPackages(packages) {
  const missing = packages.filter((p) => spawnSync("dpkg", ["-s", p], { stdio: "ignore" }).status !== 0);
  if (missing.length === 0) return;
  if (!has("apt-get")) {
    log(`cannot install ${missing.join(" ")}: no apt-get. Install them yourself, or set CHROMIUM_PATH.`);
    return;
  }
  const sudo = process.getuid && process.getuid() !== 0 ? "sudo " : "";
  log(`installing Debian packages: ${missing.join(" ")}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  run(`${sudo}apt-get update -qq`, { env });
  run(`${sudo}apt-get install -y -qq --no-install-recommends ${missing.join(" ")}`, { env });
}

npmDependencies();
const fonts = ["fonts-liberation", "fonts-noto-color-emoji"];
// Text in images is read by Tesseract (src/capture/ocr.ts) at run time, offline, with its English data.
const ocr = ["tesseract-ocr", "tesseract-ocr-eng"];
// The WebKit engine (webpage checks with engines: ["webkit"], docs/engines.md): WebKitGTK's WebDriver with a virtual
// X display; WebKit's web process aborts without Mesa's software GL driver (libgl1-mesa-dri, only a Recommends of
// WebKitGTK). Without them the server still runs, and refuses such jobs with ENGINE_UNAVAILABLE.
const webkit = ["webkit2gtk-driver", "xvfb", "libgl1-mesa-dri"];
// The Gecko engine (engines: ["gecko"], Thunderbird's renders): Firefox ESR, driven headless over its own WebDriver
// BiDi endpoint (no geckodriver, no display). Without it jobs naming gecko are ENGINE_UNAVAILABLE, Thunderbird in Chromium.
const gecko = ["firefox-esr"];
// For tests: an SMTP client and openssl for the inbox's tests, PostgreSQL, which tests start as throwaway clusters.
const forTests = process.argv.includes("--test") ? ["swaks", "openssl", "postgresql"] : [];
if (!findChromium()) debianPackages(["chromium", ...fonts, ...ocr, ...webkit, ...gecko, ...forTests]);
else if (has("dpkg")) debianPackages([...fonts, ...ocr, ...webkit, ...gecko, ...forTests]);
if (!findChromium()) {
  log("no Chromium found after set-up; set CHROMIUM_PATH to a Chromium or Chrome binary");
  process.exit(1);
}
