import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startServer, tempDataDir, type TestServer } from "./support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("the plan catalog", () => {
  test("a bad ASSAY_PLANS_FILE stops the start, naming the file and the problem", async () => {
    const dir = tempDataDir();
    const cases: Array<[string, unknown, RegExp]> = [
      ["not-json.json", "{ plans: ", /cannot be read as JSON/],
      ["no-free.json", { plans: [{ code: "team", name: "Team", paid: true, monthlyCredits: 5, features: { website_checks: true, email_checks: true, custom_parameters: true, extra_credit_clients: true }, mailClients: "all" }] }, /no plan with code "free"/],
      ["bad-feature.json", { plans: [{ code: "free", name: "Free", paid: false, features: { website_checks: "yes" }, mailClients: "all" }] }, /\/plans\/0\/features/],
      ["bad-client.json", { plans: [{ code: "free", name: "Free", paid: false, features: { website_checks: true, email_checks: true, custom_parameters: true, extra_credit_clients: true }, mailClients: ["lotus-notes"] }] }, /\/plans\/0\/mailClients: no mail client "lotus-notes"/],
    ];
    for (const [name, content, problem] of cases) {
      const file = join(dir, name);
      writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
      const start = startServer({ ASSAY_PLANS_FILE: file, DATA_DIR: join(dir, `data-${name}`) });
      await expect(start).rejects.toThrow(file);
      await expect(start).rejects.toThrow(problem);
    }
  });

  test("a new organization resolves to the free plan with the configured monthly credits, from the local provider", async () => {
    const org = await server.signup();
    const resolved = await server.assay.plans.resolve(org.customerId);
    expect(resolved.plan.code).toBe("free");
    expect(resolved.monthlyCredits).toBe(server.assay.config.monthlyFreeCredits);
    expect(resolved.source).toBe("local");
  });
});
