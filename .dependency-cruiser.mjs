// The layering of docs/architecture.md, enforced by test/repo/architecture.test.ts (part of `npm test`).
// Run it by hand with `npx depcruise src events projections`. Paths are relative to the repository root.
// Type-only imports count: a layer that names another layer's types depends on it.

// Surfaces: the transports (HTTP, MCP, CLI, the SMTP inbox adapter), the operation declarations they fold, and the
// command-line client's package (packages/cli), which talks to a server over HTTP alone.
const SURFACES = ["^src/(http|mcp|cli|operations)/", "^src/inbox/smtp-", "^packages/cli/src/"];
const npm = (...names) => `(^|/)node_modules/(${names.join("|")})/`;
// What the client package may reach in the server's folders: pure modules the server uses too (the pass and run
// policies, the page key, the URL patterns, the wire schemas and the vocabulary they name, the command line's exit
// codes), so that it runs on Node with none of the server (docs/cli.md, "The client package").
const CLIENT_SHARED = [
  "^src/domain/(pass-policy|run-policy|page-key|url-patterns|key-prefix)\\.ts$",
  "^src/contracts/(run-request|run-view|job|job-request|catalog|discovery|request-parts|schema-kit)\\.ts$",
  "^src/capture/vocabulary\\.ts$",
  "^src/cli/program\\.ts$",
  "^events/(jobs|runs|shared)\\.ts$",
];

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import circle: the modules in it cannot be understood, tested or moved one at a time.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "surfaces-no-store",
      comment: "Surfaces reach data through the services, never the event log, projections or SQLite.",
      severity: "error",
      from: { path: SURFACES },
      to: { path: ["^src/store/", "^projections/", "^bun:sqlite$"] },
    },
    {
      name: "checks-no-services-or-surfaces",
      comment:
        "A check reads artifacts and returns a verdict; it knows nothing of jobs, transports or the composition root.",
      severity: "error",
      from: { path: "^src/validations/" },
      to: { path: [...SURFACES, "^src/services/", "^src/(app|runtime)\\.ts$"] },
    },
    {
      name: "domain-no-transport",
      comment: "Deciders know no transport (HTTP, MCP, CLI, SMTP) and no application service.",
      severity: "error",
      from: { path: "^src/domain/" },
      to: {
        path: [...SURFACES, "^src/services/", npm("elysia", "smtp-server", "@modelcontextprotocol")],
      },
    },
    {
      name: "capture-no-checks",
      comment: "Capture gathers artifacts for any check; it knows no check, service, surface or catalog.",
      severity: "error",
      from: { path: "^src/capture/" },
      to: { path: [...SURFACES, "^src/(validations|services|catalog)/"] },
    },
    {
      name: "projections-only-events-and-store",
      comment:
        "Projections fold typed events into tables: they import events/ and the store's types, nothing else from src/.",
      severity: "error",
      from: { path: "^projections/" },
      to: { path: "^src/", pathNot: "^src/store/" },
    },
    {
      name: "events-stand-alone",
      comment: "Event schemas are the bottom layer: nothing from src/ or projections/.",
      severity: "error",
      from: { path: "^events/" },
      to: { path: ["^src/", "^projections/"] },
    },
    {
      name: "sql-only-in-store-and-projections",
      comment:
        "SQL is written in the store and the projections' queries alone: services hold ReadModels and pass it to those queries.",
      severity: "error",
      from: { pathNot: ["^src/store/", "^projections/"] },
      to: { path: "^bun:sqlite$" },
    },
    {
      name: "store-no-higher-layers",
      comment: "The event log and what is kept beside it know no domain, service, projection or surface.",
      severity: "error",
      from: { path: "^src/store/" },
      to: { path: [...SURFACES, "^src/(domain|services)/", "^projections/"] },
    },
    {
      name: "client-reaches-only-shared",
      comment:
        "The client package runs on Node without the server: from its entry it reaches only the shared pure modules, no Bun and none of the server's libraries.",
      severity: "error",
      from: { path: "^packages/cli/src/main\\.ts$" },
      to: {
        reachable: true,
        path: [
          "^(src|events|projections)/",
          "^bun(:|$)",
          npm("elysia", "playwright-core", "stripe", "openai", "smtp-server", "@kitajs", "postal-mime", "mailauth"),
        ],
        pathNot: CLIENT_SHARED,
      },
    },
    {
      name: "server-no-client",
      comment: "The server knows nothing of the client package; they share modules of src/ only.",
      severity: "error",
      from: { path: "^(src|events|projections)/" },
      to: { path: "^packages/" },
    },
    {
      name: "services-no-surfaces",
      comment: "Services are called by surfaces, never the other way round.",
      severity: "error",
      from: { path: "^src/services/" },
      to: { path: SURFACES },
    },
  ],
  options: {
    // typescript 7 has no compiler API for dependency-cruiser to parse with; swc keeps `import type` statements.
    parser: "swc",
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    // dependency-cruiser calls swc without JSX, so it cannot read .tsx: the page templates are left out, and
    // test/repo/architecture.test.ts holds them to importing only @kitajs/html and one another.
    exclude: { path: "\\.tsx$" },
    tsConfig: { fileName: "tsconfig.json" },
  },
};
