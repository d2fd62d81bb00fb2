import { expect } from "bun:test";
import type { TestServer } from "./harness";
import type { SignedIn } from "./mail-relay";

/** What a page answered: its status, headers and HTML. */
export interface PageAnswer {
  status: number;
  headers: Headers;
  type: string | null;
  text: string;
  json(): any;
}

async function answer(res: Response): Promise<PageAnswer> {
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    type: res.headers.get("content-type"),
    text,
    json: () => JSON.parse(text),
  };
}

/** A GET of a page as a browser without JavaScript asks it (no redirect followed). */
export async function page(s: TestServer, path: string, cookie?: string): Promise<PageAnswer> {
  return answer(await fetch(`${s.baseUrl}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" }));
}

/** A POST with an HTML form's body, as an OAuth client or a browser without JavaScript sends it (no redirect followed). */
export async function postForm(
  s: TestServer,
  path: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
): Promise<PageAnswer> {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  return answer(
    await fetch(`${s.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: body.toString(),
      redirect: "manual",
    }),
  );
}

/** The value of the first hidden (or any) input named `name` in a page. */
export const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/** The /device page's own form, posted as a browser would: its hidden fields, the organization chosen and the button pressed. */
export async function decideDevice(
  s: TestServer,
  who: SignedIn,
  userCode: string,
  decision: "approve" | "deny",
  fields: Record<string, string> = {},
) {
  const form = await page(s, `/device?user_code=${userCode}`, who.cookie);
  expect(form.text).toContain('action="/device"');
  return postForm(
    s,
    "/device",
    {
      _csrf: hidden(form.text, "_csrf")!,
      user_code: hidden(form.text, "user_code")!,
      customerId: who.customerId,
      decision,
      ...fields,
    },
    { cookie: who.cookie },
  );
}
