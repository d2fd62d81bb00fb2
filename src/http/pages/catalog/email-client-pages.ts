import { Elysia } from "elysia";
import {
  clientPageIds,
  clientRenderImage,
  clientRenders,
  clientRendersRecordedOn,
  rendersOfClient,
  showcaseMessage,
} from "../../../catalog/email-client-examples";
import { htmlPage } from "../page-kit";
import type { SetLink } from "./catalog-views";
import { EmailClientPage, EmailClientsPage } from "./email-client-views";

/**
 * The catalog's mail-client pages (part of the public catalog site, src/http/pages/catalog/index.ts): /email-clients,
 * /email-clients/<client id>, and the recorded screenshots under /email-clients/images/ (embedded in the binary,
 * cached for a day: they change only when `npm run email-client-examples` records them again and the server is rebuilt).
 */

const PUBLIC = { "cache-control": "public, max-age=300" };

/** The client pages' paths, for the sitemap. */
export const emailClientPaths = () => ["/email-clients", ...clientPageIds().map((id) => `/email-clients/${id}`)];

export function emailClientPages(props: {
  base: () => string;
  sets: () => Promise<SetLink[]>;
  notFound: (request: Request, message: string) => Promise<Response>;
}) {
  const frame = async () => ({
    base: props.base(),
    sets: await props.sets(),
    lastModified: clientRendersRecordedOn,
    message: showcaseMessage,
  });
  return new Elysia()
    .get("/email-clients", async () => {
      const clients = clientPageIds().map((id) => {
        const [light, ...dark] = rendersOfClient(id);
        return {
          clientId: id,
          name: light!.name,
          engine: light!.engine,
          formFactor: light!.formFactor,
          changes: light!.changes.length + light!.changesOmitted,
          dark: dark.length > 0,
        };
      });
      return htmlPage(EmailClientsPage({ ...(await frame()), clients }) as string, 200, PUBLIC);
    })
    .get("/email-clients/:clientId", async ({ request, params }) => {
      const renders = clientRenders.find((r) => r.clientId === params.clientId && !r.lightVariant)
        ? rendersOfClient(params.clientId)
        : [];
      if (!renders.length)
        return props.notFound(request, `No mail client has the id ${JSON.stringify(params.clientId)}.`);
      return htmlPage(
        EmailClientPage({ ...(await frame()), clientId: params.clientId, renders }) as string,
        200,
        PUBLIC,
      );
    })
    .get("/email-clients/images/:file", async ({ request, params }) => {
      const path = clientRenderImage(params.file);
      if (!path) return props.notFound(request, `No screenshot is named ${JSON.stringify(params.file)}.`);
      return new Response(Bun.file(path), {
        headers: { "content-type": "image/jpeg", "cache-control": "public, max-age=86400" },
      });
    });
}
