/** Hunspell files imported `with { type: "file" }`: Bun resolves them to a path (embedded when compiled). */
declare module "*.aff" {
  const path: string;
  export default path;
}
declare module "*.dic" {
  const path: string;
  export default path;
}
