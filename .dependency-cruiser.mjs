// The layering of docs/architecture.md, enforced by test/repo/architecture.test.ts (part of `npm test`).
// Run it by hand with `npx depcruise src events projections`. Paths are relative to the repository root.
// Type-only imports count: a layer that names another layer's types depends on it.

// Surfaces: the transports (HTTP, MCP, CLI, the SMTP inbox adapter) and the operation declarations they fold.
const SURFACES = ["^src/(http|mcp|cli|operations)/", "^src/inbox/smtp-"];
const npm = (...names) => `(^|/)node_modules/(${names.join("|")})/`;

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
