import type { Server } from "bun";

/**
 * A small Stripe for tests: the parts of Stripe's HTTP API the Stripe billing provider
 * (src/services/billing/stripe.ts) speaks, over real HTTP. Form-encoded bodies with Stripe's bracket
 * nesting, bearer secret-key auth, Stripe's object and list shapes, its error body
 * { error: { type, message, code? } } with its statuses, and the search query subset `field:'value'` and
 * `metadata['key']:'value'` joined by AND. Customers, products, prices and subscriptions live in memory.
 * Like Stripe's, the search lags behind writes: a customer is searchable only `searchLagSeconds` after it was
 * created (Stripe's docs: under normal operating conditions, data is searchable in under a minute, so search is
 * not for read-after-write); retrieving it by id is current at once.
 */

type Obj = Record<string, unknown> & { id: string; object: string; metadata?: Record<string, string> };

export interface FakeStripe {
  /** The base URL to give ASSAY_STRIPE_API_BASE. */
  url: string;
  secretKey: string;
  customers: Obj[];
  subscriptions: Obj[];
  /** Requests received, "METHOD /path", in order. */
  requests: string[];
  /** A product with this metadata and a monthly price for it; returns the price id. */
  addPlanPrice(metadata: Record<string, string>): string;
  /** Seconds after its creation before a customer shows in search results (0: at once). */
  searchLagSeconds: number;
  /** A customer for the organization made outside Assay (as in Stripe's dashboard); returns its id. */
  createCustomer(assayCustomerId: string, email: string): string;
  /** Deletes a customer as Stripe does: retrieving it then answers { id, object, deleted: true }, and search leaves it out. */
  deleteCustomer(id: string): void;
  /** Subscribes the organization's customer (found by its assay_customer_id) to a price, with this status. */
  subscribe(assayCustomerId: string, priceId: string, status?: string): Obj;
  /** Ends every subscription of the organization's customer (status canceled). */
  cancelAll(assayCustomerId: string): void;
  /** While set, every request answers 500 api_error (Stripe failing). */
  failing: boolean;
  /** Stops listening: the port refuses connections (Stripe unreachable) until restart(). */
  stop(): void;
  restart(): void;
  close(): void;
}

let sequence = 0;
const newId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(sequence++).toString(36).padStart(4, "0")}`;
const now = () => Math.floor(Date.now() / 1000);

export function startFakeStripe(secretKey = "sk_test_assay_fake"): FakeStripe {
  const customers: Obj[] = [];
  /** When each customer became visible to search, in ms (Stripe's lag). */
  const searchableAt = new Map<string, number>();
  const products: Obj[] = [];
  const prices: Obj[] = [];
  const subscriptions: Obj[] = [];
  const requests: string[] = [];

  const error = (status: number, type: string, message: string, code?: string) =>
    Response.json({ error: { type, message, ...(code ? { code } : {}) } }, { status });
  const list = (url: string, data: Obj[], limit: number) =>
    Response.json({ object: "list", data: data.slice(0, limit), has_more: data.length > limit, url });
  const newCustomer = (email: unknown, metadata: Record<string, string>): Obj => {
    const customer: Obj = { id: newId("cus"), object: "customer", created: now(), email: email ?? null, metadata };
    customers.push(customer);
    searchableAt.set(customer.id, Date.now() + fake.searchLagSeconds * 1000);
    return customer;
  };
  const customerOf = (assayCustomerId: string) => {
    const c = customers.find((x) => x.metadata?.assay_customer_id === assayCustomerId && !x.deleted);
    if (!c) throw new Error(`fake Stripe: no customer for ${assayCustomerId}`);
    return c;
  };
  const subscription = (customer: string, price: Obj, status: string): Obj => {
    const id = newId("sub");
    const item = { id: newId("si"), object: "subscription_item", price, quantity: 1, subscription: id, created: now() };
    const sub: Obj = {
      id,
      object: "subscription",
      customer,
      status,
      created: now(),
      metadata: {},
      items: { object: "list", data: [item], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
    };
    subscriptions.push(sub);
    return sub;
  };

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    requests.push(`${req.method} ${url.pathname}`);
    if (fake.failing) return error(500, "api_error", "An unknown error occurred on Stripe's end.");
    if (req.headers.get("authorization") !== `Bearer ${secretKey}`) {
      return error(401, "invalid_request_error", "Invalid API Key provided.");
    }
    const params =
      req.method === "GET" ? formToObject(url.searchParams) : formToObject(new URLSearchParams(await req.text()));
    const limit = Math.min(100, Number(params.limit ?? 10));
    const path = url.pathname;

    if (req.method === "GET" && path === "/v1/customers/search") {
      const matching = searchMatcher(String(params.query ?? ""));
      const matches = customers.filter((c) => !c.deleted && searchableAt.get(c.id)! <= Date.now() && matching(c));
      return Response.json({
        object: "search_result",
        data: matches.slice(0, limit),
        has_more: matches.length > limit,
        next_page: null,
        url: path,
      });
    }
    if (req.method === "POST" && path === "/v1/customers") {
      return Response.json(newCustomer(params.email, (params.metadata as Record<string, string>) ?? {}));
    }
    const customer = path.match(/^\/v1\/customers\/([^/]+)$/);
    if (req.method === "GET" && customer) {
      const found = customers.find((c) => c.id === customer[1]);
      if (!found) return error(404, "invalid_request_error", `No such customer: '${customer[1]}'`, "resource_missing");
      return Response.json(found.deleted ? { id: found.id, object: "customer", deleted: true } : found);
    }
    if (req.method === "GET" && path === "/v1/subscriptions") {
      const status = String(params.status ?? "active");
      const matches = subscriptions.filter(
        (s) => (!params.customer || s.customer === params.customer) && (status === "all" ? true : s.status === status),
      );
      return list(path, matches, limit);
    }
    if (req.method === "POST" && path === "/v1/subscriptions") {
      if (!customers.some((c) => c.id === params.customer))
        return error(400, "invalid_request_error", `No such customer: '${params.customer}'`, "resource_missing");
      const items = (params.items as Array<{ price?: string }> | undefined) ?? [];
      const price = prices.find((p) => p.id === items[0]?.price);
      if (!price) return error(400, "invalid_request_error", `No such price: '${items[0]?.price}'`, "resource_missing");
      return Response.json(subscription(String(params.customer), price, "active"));
    }
    const product = path.match(/^\/v1\/products\/([^/]+)$/);
    if (req.method === "GET" && product) {
      const found = products.find((p) => p.id === product[1]);
      return found
        ? Response.json(found)
        : error(404, "invalid_request_error", `No such product: '${product[1]}'`, "resource_missing");
    }
    return error(404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${path}).`);
  }

  let server: Server<undefined> | null = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: handle });
  const port = server.port;

  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    customers,
    subscriptions,
    requests,
    failing: false,
    searchLagSeconds: 0,
    createCustomer(assayCustomerId, email) {
      return newCustomer(email, { assay_customer_id: assayCustomerId }).id;
    },
    deleteCustomer(id) {
      const found = customers.find((c) => c.id === id);
      if (!found) throw new Error(`fake Stripe: no customer ${id}`);
      found.deleted = true;
    },
    addPlanPrice(metadata) {
      const prod: Obj = {
        id: newId("prod"),
        object: "product",
        name: metadata.assay_plan ?? "plan",
        active: true,
        metadata,
      };
      products.push(prod);
      const price: Obj = {
        id: newId("price"),
        object: "price",
        active: true,
        currency: "usd",
        unit_amount: 0,
        product: prod.id,
        recurring: { interval: "month", interval_count: 1 },
        metadata: {},
      };
      prices.push(price);
      return price.id;
    },
    subscribe(assayCustomerId, priceId, status = "active") {
      const price = prices.find((p) => p.id === priceId);
      if (!price) throw new Error(`fake Stripe: no price ${priceId}`);
      return subscription(customerOf(assayCustomerId).id, price, status);
    },
    cancelAll(assayCustomerId) {
      const customer = customerOf(assayCustomerId).id;
      for (const s of subscriptions) if (s.customer === customer) s.status = "canceled";
    },
    stop() {
      server?.stop(true);
      server = null;
    },
    restart() {
      server ??= Bun.serve({ port, hostname: "127.0.0.1", fetch: handle });
    },
    close() {
      fake.stop();
    },
  };
  return fake;
}

/** Stripe's bracket nesting (`metadata[k]=v`, `items[0][price]=p`) read back into objects and arrays. */
function formToObject(params: URLSearchParams): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of params) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= /^\d+$/.test(parts[i + 1]!) ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

/** Stripe's search query language, the subset: clauses `field:'value'` or `metadata['key']:'value'`, joined by AND. */
function searchMatcher(query: string): (o: Obj) => boolean {
  const clauses = query.split(/\s+AND\s+/i).map((clause) => {
    const m = clause.trim().match(/^(?:metadata\['([^']+)'\]|(\w+)):'([^']*)'$/);
    if (!m) throw new Error(`fake Stripe: unsupported search clause ${clause}`);
    return m[1] !== undefined ? (o: Obj) => o.metadata?.[m[1]!] === m[3] : (o: Obj) => String(o[m[2]!] ?? "") === m[3];
  });
  return (o) => clauses.every((c) => c(o));
}
