/**
 * Assay's in-page code, shaped as Lighthouse's page functions: named helpers, installed once per page in the world
 * the page functions run in (IsolatedWorld for a webpage, the message's page for an email), and page functions
 * (snapshotDom, snapshotLayout, …) that compose them. The helpers of a group are declared together in one scope,
 * so a helper calls another by its name; a page function is serialised on its own (IsolatedWorld.run,
 * page.evaluate), so it reaches the helpers through the registry: `globalThis[Symbol.for(PAGE_HELPERS_KEY)]`.
 * Neither may use anything else of the module it is written in (no constant, no import but the helpers').
 */

/** Where the in-page helpers live in the page: a registry symbol, out of the page's usual names. */
export const PAGE_HELPERS_KEY = "assay.page-helpers";

/**
 * Page helpers installed together, by the name page functions call them with. Each is a function declaration;
 * the key is its name in the page even where a bundler renamed the function. A group that calls another
 * group's helpers includes them (spread), so that any group can be installed alone.
 */
export type HelperGroup = Readonly<Record<string, (...args: never[]) => unknown>>;

/**
 * The script that installs `groups` in a page. It installs nothing when they are there already (a page whose
 * registry holds every name), and adds to the registry a group the page does not have yet; a name the page's
 * registry gives to another function is refused.
 */
export function helpersScript(groups: readonly HelperGroup[]): string {
  const helpers = new Map<string, (...args: never[]) => unknown>();
  for (const group of groups) {
    for (const [name, fn] of Object.entries(group)) {
      const known = helpers.get(name);
      if (known && known !== fn) throw new Error(`Two page helpers are named ${name}`);
      helpers.set(name, fn);
    }
  }
  const declarations = [...helpers].map(([name, fn]) => {
    const source = fn.toString();
    if (!/^(async\s+)?function\b/.test(source))
      throw new Error(`The page helper ${name} is not a function declaration`);
    return fn.name === name ? source : `${source}\nconst ${name} = ${fn.name};`;
  });
  const names = [...helpers.keys()];
  return `(() => {
const key = Symbol.for(${JSON.stringify(PAGE_HELPERS_KEY)});
const installed = globalThis[key] ?? {};
if (${JSON.stringify(names)}.every((name) => name in installed)) return;
${declarations.join("\n")}
const fresh = { ${names.join(", ")} };
for (const [name, fn] of Object.entries(fresh)) {
  if (name in installed && String(installed[name]) !== String(fn)) throw new Error("Two page helpers are named " + name);
}
Object.defineProperty(globalThis, key, { value: Object.assign(installed, fresh), configurable: true });
})()`;
}
