/** Screenshots imported `with { type: "file" }` (./email-clients/images.ts): Bun resolves them to a path (embedded when compiled). */
declare module "*.jpg" {
  const path: string;
  export default path;
}
