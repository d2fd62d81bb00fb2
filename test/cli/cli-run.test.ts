import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv4 from "ajv-draft-04";
import addFormats from "ajv-formats";
import nodemailer from "nodemailer";
import { validateXML } from "xmllint-wasm";
import { ROOT, runCli, startCli, startServer, type TestServer } from "../support/harness";

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
    const r = await runCli(["run", "--url", pageUrl(), "--validation", "page-title", "--validation", "html-lang"], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("PASS  page-title [major]");
    expect(r.stdout).toContain("PASS  html-lang [major]");
    expect(r.stdout).toContain("verdict: PASS (passed)");
    expect(r.stdout + r.stderr).not.toContain(ESC);
  });

  test("an html job with a failed major check is blocked: exit 1 with the reason", async () => {
    const r = await runCli(["run", ...badHtml(), "--validation", "page-title", "--validation", "single-h1"], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL {2}page-title \[major\]: .+/);
    expect(r.stdout).toContain("verdict: BLOCKED (blocked by page-title)");
  });

  test("--fail-on: a minor failure only warns by default and blocks at --fail-on minor", async () => {
    const body = { type: "static_html", html: BAD, baseUrl: "https://shop.example/sale", validations: ["single-h1"] };
    writeFileSync(join(work, "request.json"), JSON.stringify(body));
    const warned = await runCli(["run", join(work, "request.json")], env);
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain("passed, with warnings: single-h1");
    const blocked = await runCli(["run", join(work, "request.json"), "--fail-on", "minor"], env);
    expect(blocked.code).toBe(1);
    const bad = await runCli(["run", join(work, "request.json"), "--fail-on", "severe"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown threshold word "severe"');
  });

  test("a request file's selection is replaced by --validation (ID:name=value sets a parameter)", async () => {
    const r = await runCli(
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
    const r = await runCli(["run", "--email", EML, ...EMAIL_CHECKS], env);
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
    const running = startCli(["run", file, "--format", "json"], { ...env, ASSAY_API_KEY: own });
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
    const noKey = await runCli(["run", "--url", pageUrl(), "--validation", "page-title"], {
      ...env,
      ASSAY_API_KEY: "",
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("NO_KEY");

    const output = join(work, "refused-output");
    writeFileSync(output, "");
    const unknown = await runCli(["run", "--url", pageUrl(), "--validation", "no-such-check"], {
      ...env,
      GITHUB_OUTPUT: output,
    });
    expect(unknown.code).toBe(2);
    expect(readFileSync(output, "utf8")).toMatch(/^verdict=undecided\nerror=[A-Z_]+\n$/);
    expect(unknown.stderr).toMatch(/^assay: [A-Z_]+: .+ \(request [\w-]+\)\n$/);
    expect(unknown.stdout + unknown.stderr).not.toContain(apiKey);

    const down = await runCli(
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
    const r = await runCli(
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

  test("SARIF 2.1.0: a result per finding with the page URL and selector; valid against the OASIS schema", async () => {
    const r = await runCli(
      ["run", ...badHtml(), "--validation", "single-h1", "--validation", "page-title", "--format", "sarif"],
      env,
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
    const results = log.runs[0].results;
    const h1 = results.filter((x: any) => x.ruleId === "single-h1");
    expect(h1.length).toBeGreaterThan(0);
    expect(h1[0].locations[0].physicalLocation.artifactLocation.uri).toBe("https://shop.example/sale");
    expect(h1.some((x: any) => x.locations[0].logicalLocations?.[0]?.fullyQualifiedName?.includes("h1"))).toBe(true);
    expect(results.find((x: any) => x.ruleId === "page-title").level).toBe("error");
  });

  test("under GitHub Actions: outputs (job id, verdict, credits, blocking checks) and a summary table", async () => {
    const output = join(work, "github-output");
    const summary = join(work, "github-summary.md");
    writeFileSync(output, "");
    const r = await runCli(
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
    const r = await runCli(["run", ...badHtml(), "--validation", "no-horizontal-overflow", "--evidence-dir", dir], env);
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
    const started = await runCli(["start", "--email", ...EMAIL_CHECKS], { ...env, GITHUB_OUTPUT: output });
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
    const waited = await runCli(["wait", jobId!, "--format", "json"], env);
    expect(waited.code).toBe(0);
    expect(JSON.parse(waited.stdout).job.status).toBe("completed");
  });

  test("wait on a job whose mail never comes ends at --timeout: undecided", async () => {
    const started = await runCli(["start", "--email", ...EMAIL_CHECKS], env);
    const jobId = started.stdout.trim().split("\n")[0]!;
    const waited = await runCli(["wait", jobId, "--timeout", "1"], env);
    expect(waited.code).toBe(2);
    expect(waited.stdout).toContain("the job is still pending");
    expect(existsSync(join(work, "config", "assay", "hosts.json"))).toBe(false);
  });
});

describe("on a terminal", () => {
  test("progress while the job waits (elapsed time, the address, whether mail arrived) and a coloured verdict", async () => {
    const started = await runCli(["start", "--email", ...EMAIL_CHECKS], env);
    const [jobId, address] = started.stdout.trim().split("\n");
    // `script` gives the CLI a pseudo-terminal for stdout and stderr.
    const command = `${process.execPath} ${join(ROOT, "src", "main.ts")} wait ${jobId} --timeout 1`;
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

    const output = join(work, "action-output");
    writeFileSync(output, "");
    const proc = Bun.spawn(["bash", "-c", step.run], {
      cwd: work,
      env: {
        ...process.env,
        ...env,
        GITHUB_ACTION_PATH: ROOT,
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
      const r = await runCli(["run", file, "--format", "json"], env);
      const { verdict, policy, job } = JSON.parse(r.stdout);
      expect([verdict, r.code]).toEqual([c.decision, c.decision === "pass" ? 0 : 1]);
      expect(job.overallPassPolicy.decision).toBe(verdict);
      for (const field of ["blockedByRequired", "blockedByProhibited", "blockingRequired", "blockingProhibited"])
        expect(policy[field]).toEqual(job.overallPassPolicy[field]);
      expect(typeof job.overallPassPolicy.blockedByRequired).toBe("boolean");
    }
  });
});
