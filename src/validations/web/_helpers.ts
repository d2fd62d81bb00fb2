import type { CaptureSize, RenderEngine } from "../../capture/vocabulary";
import type { ValidationMeta } from "../types";
import type { DomSnapshot, LayoutSnapshot, WebArtifacts } from "../../capture/artifacts";

/** Defaults shared by the DOM checks: functional, read at desktop-md, one credit. */
export function domCheck(
  meta: Pick<ValidationMeta, "id" | "name" | "category" | "severity" | "summary" | "judgment" | "references"> &
    Partial<ValidationMeta>,
): ValidationMeta & { subjectType: "url" } {
  return {
    slug: meta.id,
    kind: "functional",
    price: { credits: 1 },
    parameters: [],
    requiresConfiguration: false,
    capture: { offered: ["desktop-md"], standard: ["desktop-md"] },
    needs: ["dom"],
    method: "dom",
    ...meta,
    subjectType: "url",
  };
}

/** The DOM at the given viewport; the capture engine guarantees the checks' declared viewports. */
export function domAt(artifacts: WebArtifacts, size: CaptureSize = "desktop-md"): DomSnapshot {
  const dom = artifacts.dom?.[size];
  if (!dom) throw new Error(`no DOM snapshot gathered at ${size}`);
  return dom;
}

export function metaByName(dom: DomSnapshot, name: string) {
  return dom.metas.filter((m) => (m.name ?? "").trim().toLowerCase() === name);
}

/** For matching user-given text: case-insensitive, white space collapsed. */
export const normaliseText = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/** Defaults shared by the visual checks: measured on layout snapshots at the given sizes, judged on screenshots. */
export function visualCheck(
  meta: Pick<ValidationMeta, "id" | "name" | "category" | "severity" | "summary" | "judgment" | "references"> &
    Partial<ValidationMeta> & { standard: CaptureSize[]; engines?: RenderEngine[] },
): ValidationMeta & { subjectType: "url" } {
  const { standard, engines, ...rest } = meta;
  return {
    slug: meta.id,
    kind: "visual",
    price: { credits: 2 },
    parameters: [],
    requiresConfiguration: false,
    capture: { offered: ["mobile-sm", "tablet-portrait", "desktop-md"], standard, ...(engines ? { engines } : {}) },
    needs: ["layout", "screenshot"],
    method: "dom",
    ...rest,
    subjectType: "url",
  };
}

export function layoutAt(artifacts: WebArtifacts, size: CaptureSize): LayoutSnapshot {
  const layout = artifacts.layout?.[size];
  if (!layout) throw new Error(`no layout gathered at ${size}`);
  return layout;
}

/** An element's box (page pixels, whole numbers) as a finding measures it: the dashboard outlines it on the screenshot. */
export const boxMeasure = (b: { x: number; y: number; width: number; height: number }) => ({
  x: Math.round(b.x),
  y: Math.round(b.y),
  width: Math.round(b.width),
  height: Math.round(b.height),
});

/**
 * A sentence for the reasoning when the page still moved at some size after the capture's wait for stillness (its
 * transitions or animations outlasted the cap): the geometry read there may be mid-motion. Empty otherwise.
 */
export function stillnessNote(artifacts: WebArtifacts): string {
  const moving = Object.entries(artifacts.stillMoving ?? {});
  if (!moving.length) return "";
  return ` Still moving when read (transitions or animations outlasted the wait after the resize): ${moving.map(([size, ms]) => `${size} after ${ms} ms`).join(", ")}.`;
}
