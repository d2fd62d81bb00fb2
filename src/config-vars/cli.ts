import type { VarSpec } from "./declaration";

/** The section "The command line client" (CONFIG_SECTIONS.cli), in the order docs/configuration.md lists it. */
export const CLI_VARS = {
  ASSAY_BASE_URL: {
    section: "cli",
    kind: "url",
    default: "http://localhost:8080",
    doc: "The server client commands talk to, when `--base-url` is not given (unset: the server logged in to last, else the default).",
  },
  ASSAY_API_KEY: {
    section: "cli",
    kind: "secret",
    defaultText: "the key `assay login` stored",
    doc: "The key client commands use; it wins over the stored key (`assay status` says which is in use and why). `assay mcp`, which agents set up by `assay install` launch, reads it too.",
  },
  ASSAY_SMTP_HOST: {
    section: "cli",
    kind: "text",
    defaultText: "the server's host name",
    doc: "The inbox `assay run --email` delivers to, when `--smtp-host` is not given.",
  },
  ASSAY_SMTP_PORT: {
    section: "cli",
    kind: "integer",
    default: 2525,
    doc: "The inbox's port, when `--smtp-port` is not given.",
  },
  XDG_CONFIG_HOME: {
    section: "cli",
    kind: "path",
    defaultText: "`~/.config`",
    doc: "`assay login` keeps its keys in `$XDG_CONFIG_HOME/assay/hosts.json`; on Linux, `assay install` finds Claude Desktop's, VS Code's and Zed's user settings under it.",
  },
  HOME: {
    section: "cli",
    kind: "path",
    defaultText: "the system's",
    doc: "The home folder `assay install` and `update` look in for MCP clients' settings (`~/.claude.json`, `~/.cursor/`, `~/.gemini/`, `~/.codeium/windsurf/`).",
  },
  CODEX_HOME: {
    section: "cli",
    kind: "path",
    defaultText: "`~/.codex`",
    doc: "Codex's folder: `assay install --client codex --scope user` writes its `config.toml` there, as Codex reads it.",
  },
  APPDATA: {
    section: "cli",
    kind: "path",
    defaultText: "the system's",
    doc: "On Windows, where `assay install` finds Claude Desktop's, VS Code's and Zed's user settings (elsewhere: `~/Library/Application Support` on macOS, `XDG_CONFIG_HOME` on Linux).",
  },
  CI: {
    section: "cli",
    kind: "text",
    doc: "Set (to anything), `assay login` never opens a browser, only prints the code and address.",
  },
  DISPLAY: {
    section: "cli",
    kind: "text",
    doc: "On Linux, `assay login` opens a browser only when this or `WAYLAND_DISPLAY` is set.",
  },
  WAYLAND_DISPLAY: { section: "cli", kind: "text", doc: "See `DISPLAY`." },
  NO_COLOR: { section: "cli", kind: "text", doc: "Set (to anything), reports on a terminal are not coloured." },
  GITHUB_OUTPUT: {
    section: "cli",
    kind: "path",
    doc: "Set (by GitHub Actions), `run` and `wait` write the outputs `job-id`, `verdict`, `credits` and `blocking-checks` there, and `start` writes `job-id` and `test-email`; `site` writes `run-id`, `verdict`, `pages`, `new-failures`, `fixed`, `visual-changes`, `credits` and `blocking-pages`.",
  },
  GITHUB_STEP_SUMMARY: {
    section: "cli",
    kind: "path",
    doc: "Set (by GitHub Actions), `run` and `wait` append a markdown table of the verdicts there; `site` appends the run's decision, new failures, fixed, visual changes and pages.",
  },
  GITHUB_HEAD_REF: {
    section: "cli",
    kind: "text",
    doc: "Set (by GitHub Actions on a pull request): the branch `assay site` says it checked, unless `--branch` or the config names one.",
  },
  GITHUB_REF_NAME: {
    section: "cli",
    kind: "text",
    doc: "Set (by GitHub Actions): the branch `assay site` says it checked when `GITHUB_HEAD_REF` is not set (a push).",
  },
  GITHUB_SHA: {
    section: "cli",
    kind: "text",
    doc: "Set (by GitHub Actions): the commit `assay site` says it checked, unless `--commit` names one.",
  },
} as const satisfies Record<string, VarSpec & { section: "cli" }>;
