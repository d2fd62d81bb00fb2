import type { RenderChangeView } from "../contracts/job";
import recorded from "./email-clients/index.json";
import { IMAGE_PATHS } from "./email-clients/images";

/**
 * The showcase message (test/fixtures/email-clients/showcase.eml) as each mail client rendered it, recorded by
 * `npm run email-client-examples` (scripts/email-client-examples.ts: one real email job over SMTP, every client and
 * dark variant) and embedded: the screenshots (./email-clients/*.jpg, through images.ts) and what each render
 * reported (index.json). The catalog's client pages show them; test/catalog/email-client-examples.test.ts checks that
 * every client the catalog offers has its render recorded.
 */

export interface ClientRender {
  clientId: string;
  formFactor: string;
  name: string;
  engine: string;
  colorScheme: "light" | "dark";
  lightVariant?: string;
  darkMode?: { method: string; extent?: string; darkened: boolean; how: string };
  changes: RenderChangeView[];
  changesOmitted: number;
  sources: Record<string, { title: string; url: string; checked: string }>;
  /** The committed screenshot: its file in ./email-clients/, its size, the render's width, and whether it was cut short. */
  image: { file: string; width: number; height: number; renderWidth: number; cut: boolean };
}

interface RecordedFile {
  /** The day the renders were recorded: the client pages' lastmod. */
  recordedOn: string;
  /** The message rendered, from the repository's root. */
  message: string;
  check: string;
  renders: ClientRender[];
}

const file = recorded as unknown as RecordedFile;

export const clientRendersRecordedOn = file.recordedOn;
export const showcaseMessage = file.message;
export const clientRenders: readonly ClientRender[] = file.renders;

/** A client page's renders: the client at its form factor, then its dark variant. */
export const rendersOfClient = (clientId: string): ClientRender[] =>
  file.renders.filter((r) => r.clientId === clientId || r.lightVariant === clientId);

/** The pages: one per light client, in the order recorded. */
export const clientPageIds = (): string[] => file.renders.filter((r) => !r.lightVariant).map((r) => r.clientId);

/** A screenshot's path by its file name, or undefined when none was recorded under that name. */
export const clientRenderImage = (name: string): string | undefined =>
  Object.hasOwn(IMAGE_PATHS, name) ? IMAGE_PATHS[name] : undefined;
