import { Elysia } from "elysia";
import type { Services } from "../services/facade";
import { ALL_SCOPES } from "../domain/accounts";
import { brandCard, brandSchema, LOGOS } from "../docs/brand";
import { llmsFullTxt, llmsTxt } from "../docs/llms";
import { AppError } from "../errors/app-error";

const text = (body: string, type: string) => new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=300" } });

/** What agents read to learn the service: protected-resource metadata, llms.txt and the brand files (OpenAPI is an operation). All generated. */
export function agentRoutes(services: Services) {
  const base = () => services.config.publicBaseUrl;
  // RFC 9728: the resource is the MCP endpoint; authorization servers are listed once sign-in exists.
  const resourceMetadata = () => ({
    resource: `${base()}/mcp`,
    resource_name: "Assay MCP tool server",
    bearer_methods_supported: ["header"],
    scopes_supported: [...ALL_SCOPES],
    resource_documentation: `${base()}/llms.txt`,
  });
  return new Elysia()
    .get("/.well-known/oauth-protected-resource/mcp", resourceMetadata)
    .get("/.well-known/oauth-protected-resource", resourceMetadata)
    .get("/llms.txt", () => text(llmsTxt(base()), "text/plain; charset=utf-8"))
    .get("/llms-full.txt", () => text(llmsFullTxt(base()), "text/plain; charset=utf-8"))
    .get("/.well-known/brand-card.json", () => brandCard(base()))
    .get("/.well-known/brand-schema.json", () => brandSchema(base()))
    .get("/brand/:file", ({ params }) => {
      const logo = LOGOS[params.file];
      if (!logo) throw new AppError("STORAGE_OBJECT_NOT_FOUND", `No brand file ${params.file}.`, { file: params.file });
      return text(logo.svg, "image/svg+xml");
    });
}
