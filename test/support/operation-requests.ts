import type { Operation } from "../../src/operations/operation";

/**
 * An operation's arguments (its MCP arguments, its example) as an HTTP request: path parameters in the path, query
 * fields in the query, the rest as the body. The security suite and the fuzzing suite send requests this way.
 */
export function httpRequestFor(op: Operation, args: Record<string, unknown>) {
  let path = op.http!.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  // A value that is not a string goes as its JSON text: the fuzzing suite sends any value in any place.
  const text = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));
  for (const [name, value] of Object.entries(args)) {
    if (op.input.path?.properties[name]) path = path.replace(`{${name}}`, encodeURIComponent(text(value)));
    else if (op.input.query?.properties[name]) query.set(name, text(value));
    else body[name] = value;
  }
  const url = query.size ? `${path}?${query}` : path;
  return { method: op.http!.method.toUpperCase(), url, body: op.http!.method === "get" ? undefined : body };
}
