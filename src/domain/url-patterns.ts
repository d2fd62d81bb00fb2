import picomatch from "picomatch";

/**
 * Include and exclude patterns over a URL's path (`/blog/**`, `**\/*.pdf`, `/about`), globs as picomatch reads
 * them with dot files matched: a path is kept when it matches an include pattern (or none are given) and no
 * exclude pattern. Site discovery filters what it lists with them; the client filters a built folder's pages.
 */
export interface PathPatterns {
  include?: readonly string[];
  exclude?: readonly string[];
}

export function pathFilter({ include = [], exclude = [] }: PathPatterns): (path: string) => boolean {
  const included = include.length ? picomatch([...include], { dot: true }) : () => true;
  const excluded = exclude.length ? picomatch([...exclude], { dot: true }) : () => false;
  return (path) => included(path) && !excluded(path);
}
