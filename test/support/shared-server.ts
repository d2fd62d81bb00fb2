import { afterAll, beforeAll } from "bun:test";
import { startServer, type TestServer } from "./harness";

/**
 * One server and one signed-up key for the tests of the describe (or file) it is called in: started before them,
 * stopped after. Read `server` and `apiKey` inside the tests.
 */
export function sharedServer(env: Record<string, string> = {}): {
  readonly server: TestServer;
  readonly apiKey: string;
} {
  let server: TestServer | undefined;
  let apiKey: string | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    apiKey = (await server.signup()).apiKey;
  }, 120_000);
  afterAll(() => server?.stop(), 120_000);
  return {
    get server() {
      return server!;
    },
    get apiKey() {
      return apiKey!;
    },
  };
}
