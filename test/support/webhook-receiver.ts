import { Webhook } from "standardwebhooks";

/** One request a receiver got: its path, its headers (lower-case names), its body as sent, and when it came. */
export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

/**
 * A webhook receiver on loopback, as an organization runs one: it records every request and answers each path with
 * the statuses a test scripts for it, in order (204 once they run out), with a short body naming the status.
 */
export interface WebhookReceiver {
  /** The receiver's URL for a path (`/hooks/a`). */
  url(path: string): string;
  /** Statuses the next requests to `path` are answered with, in order. */
  answer(path: string, ...statuses: number[]): void;
  received(path: string): ReceivedRequest[];
  /** Waits until `path` has received `count` requests (the sweep attempts every second), and answers them. */
  waitFor(path: string, count: number): Promise<ReceivedRequest[]>;
  stop(): void;
}

export function startWebhookReceiver(): WebhookReceiver {
  const requests: ReceivedRequest[] = [];
  const scripts = new Map<string, number[]>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push({
        path,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
        receivedAt: Date.now(),
      });
      const status = scripts.get(path)?.shift() ?? 204;
      return new Response(status === 204 ? null : `answered ${status}`, { status });
    },
  });
  const received = (path: string) => requests.filter((r) => r.path === path);
  return {
    url: (path) => `http://127.0.0.1:${server.port}${path}`,
    answer(path, ...statuses) {
      scripts.set(path, [...(scripts.get(path) ?? []), ...statuses]);
    },
    received,
    async waitFor(path, count) {
      for (let i = 0; i < 1200; i++) {
        if (received(path).length >= count) return received(path);
        await Bun.sleep(50);
      }
      throw new Error(`${path} received ${received(path).length} request(s), not ${count}`);
    },
    stop: () => server.stop(true),
  };
}

/** A delivery verified as a receiver verifies it: standardwebhooks' Webhook.verify, which throws on a bad signature. */
export const verifyDelivery = (secret: string, request: ReceivedRequest) =>
  new Webhook(secret).verify(request.body, request.headers) as { type: string; timestamp: string; data: any };
