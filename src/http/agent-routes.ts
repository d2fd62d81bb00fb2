import { Elysia } from "elysia";
import type { Services } from "../services/facade";
import { ALL_SCOPES } from "../domain/accounts";
import { DEVICE_GRANT_TYPE } from "../domain/device";
import { brandCard, brandSchema, LOGOS } from "../docs/brand";
import { llmsFullTxt, llmsTxt } from "../docs/llms";
import { AppError } from "../errors/app-error";
import { requestDeviceCode } from "../operations/device/request-device-code";
import { exchangeDeviceCode } from "../operations/device/exchange-device-code";

const text = (body: string, type: string) =>
  new Response(body, { headers: { "content-type": type, "cache-control": "public, max-age=300" } });

/**
 * RFC 8414 metadata of the authorization server this server is: what the device flow (RFC 8628) offers and nothing
 * more. The person approves a code on /device while signed in (by link or OpenID Connect); a client polls the token
 * endpoint for a key (a Bearer access token). There is no authorization endpoint, so response_types_supported is
 * left out (RFC 8414 erratum 7793: required only when a grant uses that endpoint; §3.2: an empty list must be
 * omitted); grant types and client authentication are named because their defaults (authorization_code and
 * implicit; client_secret_basic) are not offered.
 */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    device_authorization_endpoint: `${base}${requestDeviceCode.http!.path}`,
    token_endpoint: `${base}${exchangeDeviceCode.http!.path}`,
    grant_types_supported: [DEVICE_GRANT_TYPE],
    token_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [...ALL_SCOPES],
    service_documentation: `${base}/llms.txt`,
  };
}

/** What agents read to learn the service: OAuth metadata, llms.txt and the brand files (OpenAPI is an operation). All generated. */
export function agentRoutes(services: Services) {
  const base = () => services.config.publicBaseUrl;
  // RFC 9728: the resource is the MCP endpoint; its keys come from this server acting as the authorization server.
  const resourceMetadata = () => ({
    resource: `${base()}/mcp`,
    resource_name: "Assay MCP tool server",
    authorization_servers: [base()],
    bearer_methods_supported: ["header"],
    scopes_supported: [...ALL_SCOPES],
    resource_documentation: `${base()}/llms.txt`,
  });
  return new Elysia()
    .get("/.well-known/oauth-protected-resource/mcp", resourceMetadata)
    .get("/.well-known/oauth-protected-resource", resourceMetadata)
    .get("/.well-known/oauth-authorization-server", () => authorizationServerMetadata(base()))
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
