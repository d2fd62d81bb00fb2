import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatedDocs } from "../src/docs/generate";

for (const [path, render] of Object.entries(generatedDocs)) {
  writeFileSync(join(import.meta.dir, "..", path), render());
  console.log(`wrote ${path}`);
}
