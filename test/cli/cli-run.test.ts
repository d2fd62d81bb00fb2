import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv4 from "ajv-draft-04";
import addFormats from "ajv-formats";
import nodemailer from "nodemailer";
import { validateXML } from "xmllint-wasm";
import pkg from "../../packages/cli/package.json" with { type: "json" };
import { findSet } from "../../src/catalog/sets";
import { ROOT, runClient, startClient, startServer, type TestServer } from "../support/harness";

/**
 * `assay run`, `start` and `wait` as a subprocess against a real server (real Chromium for page jobs, the real
 * SMTP inbox for email jobs): each subject, each exit code, each format validated against its published schema
 * (test/fixtures/schemas), the GitHub Actions outputs and summary, and the evidence directory.
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 120_000;

const GOOD = `<!doctype html><html lang="en"><head><title>Spring sale</title></head><body><h1>Spring sale</h1></body></html>`;
// No lang, no title, two h1s; a box wider than any viewport.
const BAD = `<html><head></head><body><h1>One</h1><h1>Two</h1><div style="width:2400px;height:40px;background:#c00">wide</div></body></html>`;
// The Northwind message: passes every functional email check (test/fixtures/email/README.md).
const EML = join(ROOT, "test", "fixtures", "email", "email-list-unsubscribe-header", "pass.eml");
const EMAIL_CHECKS = ["--validation", "email-subject-length", "--validation", "email-list-unsubscribe-header"];
const ESC = "\x1b[";
/** An HTML file as a person writes it: lines and indentation, one image added by a script. */
const SOURCE = `<!doctype html>
<html>
<head></head>
<body>
  <h1>One</h1>
  <h1 class="again">Two</h1>
  <img src="x.png">
  <script>document.body.appendChild(document.createElement("img")).src = "y.png";</script>
</body>
</html>
`;

let server: TestServer;
let target: ReturnType<typeof Bun.serve>;
let work: string;
let env: Record<string, string>;
let apiKey: string;

beforeAll(async () => {
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  target = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(GOOD, { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  work = mkdtempSync(join(tmpdir(), "assay-cli-run-"));
  apiKey = (await server.signup()).apiKey;
  writeFileSync(join(work, "bad.html"), BAD);
  // A config directory of its own (no stored key), the key by environment, the server by environment.
  env = {
    XDG_CONFIG_HOME: join(work, "config"),
    ASSAY_API_KEY: apiKey,
    ASSAY_BASE_URL: server.baseUrl,
    ASSAY_SMTP_PORT: String(server.smtpPort),
    GITHUB_OUTPUT: "",
    GITHUB_STEP_SUMMARY: "",
  };
}, HOOK_TIMEOUT);
afterAll(async () => {
  target?.stop(true);
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
}, HOOK_TIMEOUT);

const pageUrl = () => `http://127.0.0.1:${target.port}/`;
const badHtml = () => ["--html", join(work, "bad.html"), "--page-url", "https://shop.example/sale"];

describe("assay run: subjects and exit codes", () => {
  test("a url job that passes: exit 0, plain lines (no escape codes off a terminal)", async () => {
    const r = await runClient(
      ["run", "--url", pageUrl(), "--validation", "page-title", "--validation", "html-lang"],
      env,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("PASS  page-title [major]");
    expect(r.stdout).toContain("PASS  html-lang [major]");
    expect(r.stdout).toContain("verdict: PASS (passed)");
    expect(r.stdout + r.stderr).not.toContain(ESC);
  });

  test("an html job with a failed major check is blocked: exit 1 with the reason", async () => {
    const r = await runClient(["run", ...badHtml(), "--validation", "page-title", "--validation", "single-h1"], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL {2}page-title \[major\]: .+/);
    expect(r.stdout).toContain("verdict: BLOCKED (blocked by page-title)");
  });

  test("no --validation or --set: a page runs web-essentials, an email job the transactional set, and says so", async () => {
    const page = await runClient(["run", ...badHtml(), "--format", "json"], env);
    expect(page.stderr).toContain("No --validation or --set given: checking the web-essentials set");
    const job = JSON.parse(page.stdout).job;
    expect(job.validationSetId).toBe("web-essentials");
    expect(job.results.map((r: { validationId: string }) => r.validationId).sort()).toEqual(
      [...findSet("web-essentials")!.validationIds].sort(),
    );
    const email = await runClient(["start", "--email"], env);
    expect(email.code).toBe(0);
    expect(email.stderr).toContain("checking the transactional set");
    const jobId = email.stdout.split("\n")[0]!;
    expect((await server.api("GET", `/api/jobs/${jobId}`, { key: apiKey })).body.validationSetId).toBe("transactional");
  });

  test("typos get help: an unknown check or set id names the nearest (exit 2, nothing created); an unknown command too", async () => {
    const before = (await server.api("GET", "/api/jobs", { key: apiKey })).body.jobs.length;
    const ids = await runClient(["run", ...badHtml(), "--validation", "page-titel", "--validation", "html_lang"], env);
    expect(ids.code).toBe(2);
    expect(ids.stderr).toMatch(/^assay: VALIDATION_NOT_RUNNABLE: .+ \(request [\w-]+\)\n/);
    expect(ids.stderr).toContain("  page-titel: did you mean `page-title`?\n  html_lang: did you mean `html-lang`?\n");
    const set = await runClient(["run", ...badHtml(), "--set", "web-essential"], env);
    expect(set.code).toBe(2);
    expect(set.stderr).toContain("VALIDATION_SET_NOT_FOUND");
    expect(set.stderr).toContain("  web-essential: did you mean `web-essentials`?");
    expect((await server.api("GET", "/api/jobs", { key: apiKey })).body.jobs.length).toBe(before);

    const command = await runClient(["stauts"], env);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("error: unknown command 'stauts'\n(Did you mean status?)");
  });

  test("--fail-on: a minor failure only warns by default and blocks at --fail-on minor", async () => {
    const body = { type: "static_html", html: BAD, baseUrl: "https://shop.example/sale", validations: ["single-h1"] };
    writeFileSync(join(work, "request.json"), JSON.stringify(body));
    const warned = await runClient(["run", join(work, "request.json")], env);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain("passed, with warnings: single-h1");
    const blocked = await runClient(["run", join(work, "request.json"), "--fail-on", "minor"], env);
    expect(blocked.code).toBe(1);
    const bad = await runClient(["run", join(work, "request.json"), "--fail-on", "severe"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown threshold word "severe"');
  });

  test("a request file's selection is replaced by --validation (ID:name=value sets a parameter)", async () => {
    const r = await runClient(
      ["run", join(work, "request.json"), "--validation", "required-text-present:text=Two", "--format", "json"],
      env,
    );
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.verdict).toBe("pass");
    expect(report.job.results.map((x: any) => [x.validationId, x.verdict])).toEqual([
      ["required-text-present", "pass"],
    ]);
  });

  test("an email job: the .eml is delivered over SMTP to the job's address and the run waits for the verdict", async () => {
    const r = await runClient(["run", "--email", EML, ...EMAIL_CHECKS], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/waiting for mail at t-[a-z0-9]{26}@/);
    expect(r.stdout).toContain("PASS  email-list-unsubscribe-header");
    expect(r.stdout).toContain("job job_");
  });

  test("a request file asking detail verbose: the email job it waits for is polled, and reported, verbose (the server answers brief unless asked)", async () => {
    const { apiKey: own } = await server.signup();
    const file = join(work, "verbose-email.json");
    writeFileSync(
      file,
      JSON.stringify({
        type: "email",
        validations: ["email-subject-length", "email-list-unsubscribe-header"],
        detail: "verbose",
      }),
    );
    const running = startClient(["run", file, "--format", "json"], { ...env, ASSAY_API_KEY: own });
    let address: string | undefined;
    while (!address) {
      address = (await server.api("GET", "/api/jobs", { key: own })).body.jobs[0]?.testEmail;
      if (!address) await Bun.sleep(50);
    }
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: server.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      envelope: { from: "news@mail.northwind.example", to: [address] },
      raw: readFileSync(EML),
    });
    const r = await running.done();
    expect(r.code).toBe(0);
    const { job } = JSON.parse(r.stdout);
    expect(job.status).toBe("completed");
    expect(job.results).toHaveLength(2);
    for (const result of job.results) expect(result.note).toEqual(expect.any(String));
  });

  test("undecided (exit 2): no key, an unknown validation (code, message, request id; never the key), an unreachable server", async () => {
    const noKey = await runClient(["run", "--url", pageUrl(), "--validation", "page-title"], {
      ...env,
      ASSAY_API_KEY: "",
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("NO_KEY");

    const output = join(work, "refused-output");
    writeFileSync(output, "");
    const unknown = await runClient(["run", "--url", pageUrl(), "--validation", "no-such-check"], {
      ...env,
      GITHUB_OUTPUT: output,
    });
    expect(unknown.code).toBe(2);
    expect(readFileSync(output, "utf8")).toMatch(/^verdict=undecided\nerror=[A-Z_]+\n$/);
    expect(unknown.stderr).toMatch(/^assay: [A-Z_]+: .+ \(request [\w-]+\)\n$/);
    expect(unknown.stdout + unknown.stderr).not.toContain(apiKey);

    const down = await runClient(
      ["run", "--url", pageUrl(), "--validation", "page-title", "--base-url", "http://127.0.0.1:9"],
      env,
    );
    expect(down.code).toBe(2);
    expect(down.stderr).toContain("UNREACHABLE");
  });
});

describe("assay run: formats, GitHub Actions, evidence", () => {
  test("JUnit: one test case per validation, the failure with its reason; valid against junit-10.xsd", async () => {
    const out = join(work, "report.xml");
    const r = await runClient(
      [
        "run",
        ...badHtml(),
        "--validation",
        "page-title",
        "--validation",
        "single-h1",
        "--validation",
        "no-lorem-ipsum",
        "--validation",
        "meta-description",
        "--format",
        "junit",
        "--output",
        out,
      ],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("verdict: BLOCKED");
    const xml = readFileSync(out, "utf8");
    expect(xml.match(/<testcase /g)?.length).toBe(4);
    // Named by the validation id alone (a severity change keeps the history); a failure only where it blocks:
    // no-lorem-ipsum passes here, page-title (major) blocks, single-h1 and meta-description (minor) only warn.
    expect(xml).toMatch(
      /<testcase classname="assay.static_html" name="page-title"[^>]*>\s*<failure message="[^"]+" type="major"/,
    );
    expect(xml.match(/<failure /g)?.length).toBe(1);
    for (const id of ["single-h1", "meta-description"])
      expect(xml).toMatch(new RegExp(`name="${id}"[^>]*>\\s*<system-out><!\\[CDATA\\[fail \\(warns, not blocking\\)`));
    expect(xml).not.toMatch(/name="[^"]*\[/);
    const schema = readFileSync(join(ROOT, "test", "fixtures", "schemas", "junit-10.xsd"), "utf8");
    const result = await validateXML({
      xml: [{ fileName: "report.xml", contents: xml }],
      schema: [{ fileName: "junit-10.xsd", contents: schema }],
    });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test("SARIF 2.1.0 for --html FILE: each finding at the file and its element's start tag; valid against the OASIS schema", async () => {
    // Lines and columns count in this file as written; the last <img> is added by a script, so it is in no line.
    writeFileSync(join(work, "page.html"), SOURCE);
    const r = await runClient(
      [
        "run",
        "--html",
        "page.html",
        "--page-url",
        "https://shop.example/sale",
        "--validation",
        "single-h1",
        "--validation",
        "image-alt-text",
        "--validation",
        "page-title",
        "--format",
        "sarif",
      ],
      env,
      work,
    );
    expect(r.code).toBe(1);
    const log = JSON.parse(r.stdout);
    const ajv = new Ajv4({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "schemas", "sarif-schema-2.1.0.json"), "utf8")),
    );
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(log.version).toBe("2.1.0");
    const results: any[] = log.runs[0].results;
    const at = (ruleId: string) =>
      results
        .filter((x) => x.ruleId === ruleId)
        .map((x) => ({
          uri: x.locations[0].physicalLocation.artifactLocation.uri,
          selector: x.locations[0].logicalLocations?.[0]?.fullyQualifiedName,
          region: x.locations[0].physicalLocation.region,
        }));
    // Every result is at the file, as code scanning annotates a pull request.
    expect(new Set(results.map((x) => x.locations[0].physicalLocation.artifactLocation.uri))).toEqual(
      new Set(["page.html"]),
    );
    expect(results[0].properties.pageUrl).toBe("https://shop.example/sale");
    expect(at("single-h1")).toContainEqual({
      uri: "page.html",
      selector: "html > body > h1:nth-of-type(2)",
      region: { startLine: 6, startColumn: 3, endLine: 6, endColumn: 21, snippet: { text: '<h1 class="again">' } },
    });
    const images = at("image-alt-text");
    expect(images).toContainEqual({
      uri: "page.html",
      selector: "html > body > img:nth-of-type(1)",
      region: { startLine: 7, startColumn: 3, endLine: 7, endColumn: 20, snippet: { text: '<img src="x.png">' } },
    });
    // The image the script added has no place in the source: the result points at the file alone.
    expect(images).toContainEqual({
      uri: "page.html",
      selector: "html > body > img:nth-of-type(2)",
      region: undefined,
    });
    expect(results.find((x) => x.ruleId === "page-title").level).toBe("error");

    // A file outside the working folder is named by its file: URI.
    const outside = await runClient(["run", ...badHtml(), "--validation", "single-h1", "--format", "sarif"], env);
    expect(JSON.parse(outside.stdout).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      `file://${join(work, "bad.html")}`,
    );
    // A page given in a request body, with no file, is located at its URL.
    const body = { type: "static_html", html: BAD, baseUrl: "https://shop.example/sale", validations: ["single-h1"] };
    writeFileSync(join(work, "sarif-request.json"), JSON.stringify(body));
    const byUrl = await runClient(["run", join(work, "sarif-request.json"), "--format", "sarif"], env);
    expect(JSON.parse(byUrl.stdout).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      "https://shop.example/sale",
    );
  });

  test("under GitHub Actions: outputs (job id, verdict, credits, blocking checks) and a summary table", async () => {
    const output = join(work, "github-output");
    const summary = join(work, "github-summary.md");
    writeFileSync(output, "");
    const r = await runClient(
      ["run", ...badHtml(), "--validation", "page-title", "--validation", "html-lang", "--validation", "single-h1"],
      {
        ...env,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
      },
    );
    expect(r.code).toBe(1);
    const values = Object.fromEntries(
      readFileSync(output, "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(/=(.*)/s).slice(0, 2)),
    );
    expect(values["job-id"]).toMatch(/^job_/);
    expect(values.verdict).toBe("blocked");
    expect(values.credits).toBe("3");
    expect(values["blocking-checks"]).toBe("page-title,html-lang");
    const md = readFileSync(summary, "utf8");
    expect(md).toContain("### Assay: BLOCKED");
    expect(md).toContain("| Verdict | Check | Severity | Blocks | Reason |");
    expect(md).toMatch(/\| ❌ fail \| `page-title` \| major \| yes \| .+ \|/);
    expect(md).toMatch(/\| ❌ fail \| `single-h1` \| minor \| no \| .+ \|/);
  });

  test("--evidence-dir: the job JSON and every non-pass screenshot, fetched with the key", async () => {
    const dir = join(work, "evidence");
    const r = await runClient(
      ["run", ...badHtml(), "--validation", "no-horizontal-overflow", "--evidence-dir", dir],
      env,
    );
    expect(r.code).toBe(1);
    const job = JSON.parse(readFileSync(join(dir, "job.json"), "utf8"));
    expect(job.results[0].verdict).toBe("fail");
    const shots = readdirSync(dir).filter((f) => f.endsWith(".jpg"));
    expect(shots.length).toBeGreaterThan(0);
    expect(shots.every((f) => f.startsWith(job.jobId))).toBe(true);
    const bytes = readFileSync(join(dir, shots[0]!));
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  });
});

describe("assay start + assay wait", () => {
  test("start prints the id and the address; the message is sent in between; wait decides", async () => {
    const output = join(work, "start-output");
    writeFileSync(output, "");
    const started = await runClient(["start", "--email", ...EMAIL_CHECKS], { ...env, GITHUB_OUTPUT: output });
    expect(started.code).toBe(0);
    const [jobId, address] = started.stdout.trim().split("\n");
    expect(jobId).toMatch(/^job_/);
    expect(address).toMatch(/^t-[a-z0-9]{26}@/);
    expect(readFileSync(output, "utf8")).toBe(`job-id=${jobId}\ntest-email=${address}\n`);

    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: server.smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    await transport.sendMail({
      envelope: { from: "news@mail.northwind.example", to: [address!] },
      raw: readFileSync(EML),
    });
    const waited = await runClient(["wait", jobId!, "--format", "json"], env);
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout).job.status).toBe("completed");
  });

  test("wait on a job whose mail never comes ends at --timeout: undecided", async () => {
    const started = await runClient(["start", "--email", ...EMAIL_CHECKS], env);
    const jobId = started.stdout.trim().split("\n")[0]!;
    const waited = await runClient(["wait", jobId, "--timeout", "1"], env);
    expect(waited.code).toBe(2);
    expect(waited.stdout).toContain("the job is still pending");
    expect(existsSync(join(work, "config", "assay", "hosts.json"))).toBe(false);
  });
});

describe("on a terminal", () => {
  test("progress while the job waits (elapsed time, the address, whether mail arrived) and a coloured verdict", async () => {
    const started = await runClient(["start", "--email", ...EMAIL_CHECKS], env);
    const [jobId, address] = started.stdout.trim().split("\n");
    // `script` gives the CLI a pseudo-terminal for stdout and stderr.
    const command = `${process.execPath} ${join(ROOT, "packages", "cli", "src", "main.ts")} wait ${jobId} --timeout 1`;
    const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], {
      cwd: ROOT,
      env: { ...process.env, ...env, NO_COLOR: "" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(2);
    expect(out).toContain(`\r\x1b[2K${jobId} pending 0s · ${address} · waiting for mail`);
    expect(out).toContain(`verdict: \x1b[33mUNDECIDED\x1b[0m`);
  });
});

describe("action.yml (composite)", () => {
  test("its run step builds the command from the inputs and writes the step's outputs", async () => {
    const action = Bun.YAML.parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as any;
    expect(action.runs.using).toBe("composite");
    const step = action.runs.steps.find((s: any) => s.id === "run");
    // Every input reaches the step (as INPUT_* or the ASSAY_* variables) and every output reads the step's.
    const passed = Object.values(step.env).join(" ");
    for (const input of Object.keys(action.inputs)) expect(passed).toContain(`\${{ inputs.${input} }}`);
    for (const [name, output] of Object.entries<any>(action.outputs))
      expect(output.value).toBe(`\${{ steps.run.outputs.${name} }}`);

    // The install step packs the committed client and installs it alone, offline: it has nothing to download.
    const install = action.runs.steps[0];
    const runnerTemp = join(work, "runner-temp");
    const githubPath = join(work, "github-path");
    mkdirSync(runnerTemp, { recursive: true });
    writeFileSync(githubPath, "");
    const installed = Bun.spawnSync(["bash", "-c", install.run], {
      cwd: work,
      env: {
        ...process.env,
        GITHUB_ACTION_PATH: ROOT,
        RUNNER_TEMP: runnerTemp,
        GITHUB_PATH: githubPath,
        npm_config_offline: "true",
        npm_config_cache: join(work, "npm-cache"),
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect([installed.exitCode, installed.stderr.toString()]).toEqual([0, ""]);
    const bin = readFileSync(githubPath, "utf8").trim();
    expect(bin).toBe(join(runnerTemp, "assay-cli", "bin"));
    expect(installed.stdout.toString().trim().split("\n").at(-1)).toBe(pkg.version);
    // Only the client: its one file, no node_modules of its own.
    const packageDir = join(runnerTemp, "assay-cli", "lib", "node_modules", "assay-cli");
    expect(readdirSync(packageDir).sort()).toEqual(["README.md", "dist", "package.json"]);

    const output = join(work, "action-output");
    writeFileSync(output, "");
    // GitHub puts the folders of GITHUB_PATH first on the PATH of the steps that follow.
    const proc = Bun.spawn(["bash", "-c", step.run], {
      cwd: work,
      env: {
        ...process.env,
        ...env,
        PATH: `${bin}:${process.env.PATH}`,
        GITHUB_OUTPUT: output,
        INPUT_HTML: join(work, "bad.html"),
        INPUT_PAGE_URL: "https://shop.example/sale",
        INPUT_VALIDATIONS: "page-title\nsingle-h1",
        INPUT_FAIL_ON: "fail",
        INPUT_FORMAT: "sarif",
        INPUT_OUTPUT: join(work, "action.sarif"),
        INPUT_TIMEOUT: "60",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await proc.exited).toBe(1);
    expect(readFileSync(output, "utf8")).toMatch(
      /^job-id=job_\S+\nverdict=blocked\ncredits=2\nblocking-checks=page-title\n$/,
    );
    expect(JSON.parse(readFileSync(join(work, "action.sarif"), "utf8")).runs[0].results.length).toBeGreaterThan(0);
  });
});

describe("the CLI and the job's own overallPassPolicy agree", () => {
  test("pass, blocked by required, blocked by prohibited, warnings: the same decision and lists", async () => {
    const cases: Array<{ validations: unknown[]; decision: string }> = [
      { validations: ["no-lorem-ipsum"], decision: "pass" },
      { validations: ["page-title", { id: "html-lang", severity: "optional" }], decision: "blocked" },
      {
        validations: [
          { id: "single-h1", severity: "prohibited" },
          { id: "page-title", severity: "recommended" },
        ],
        decision: "blocked",
      },
      { validations: ["single-h1", { id: "page-title", severity: "optional" }], decision: "pass" },
    ];
    for (const [i, c] of cases.entries()) {
      const file = join(work, `agree-${i}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          type: "static_html",
          html: BAD,
          baseUrl: "https://shop.example/sale",
          validations: c.validations,
        }),
      );
      const r = await runClient(["run", file, "--format", "json"], env);
      const { verdict, policy, job } = JSON.parse(r.stdout);
      expect([verdict, r.code]).toEqual([c.decision, c.decision === "pass" ? 0 : 1]);
      expect(job.overallPassPolicy.decision).toBe(verdict);
      for (const field of ["blockedByRequired", "blockedByProhibited", "blockingRequired", "blockingProhibited"])
        expect(policy[field]).toEqual(job.overallPassPolicy[field]);
      expect(typeof job.overallPassPolicy.blockedByRequired).toBe("boolean");
    }
  });
});
