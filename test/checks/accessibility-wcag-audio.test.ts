import { afterAll, beforeAll, expect, test } from "bun:test";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * WCAG 1.4.2 Audio Control in accessibility-wcag, on real Chromium through the API: axe's no-autoplay-audio decided
 * by Assay's check (W3C ACT 80f0bf), and Assay's best-practice rules for its two input rules, autoplay-audio-short
 * (ACT aaa1bf) and autoplay-audio-has-control (ACT 4c31df), on what the media probe measured
 * (src/capture/axe-rules/media-probe.ts). The media are WAV files written here, as data: URLs.
 */
let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

/** A mono 8-bit WAV at 8 kHz: a 440 Hz tone for `toneSeconds`, then silence to `seconds`. */
function wav(seconds: number, toneSeconds: number): string {
  const rate = 8000;
  const samples = seconds * rate;
  const out = Buffer.alloc(44 + samples);
  out.write("RIFF", 0);
  out.writeUInt32LE(36 + samples, 4);
  out.write("WAVEfmt ", 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(rate, 24);
  out.writeUInt32LE(rate, 28);
  out.writeUInt16LE(1, 32);
  out.writeUInt16LE(8, 34);
  out.write("data", 36);
  out.writeUInt32LE(samples, 40);
  for (let i = 0; i < samples; i++)
    out[44 + i] = i < toneSeconds * rate ? Math.round(128 + 100 * Math.sin((2 * Math.PI * 440 * i) / rate)) : 128;
  return `data:audio/wav;base64,${out.toString("base64")}`;
}
const TONE = wav(5, 5);
const SILENT = wav(5, 0);

async function run(body: string, bestPractices = true) {
  const html = `<!doctype html><html lang="en"><head><title>Audio</title></head><body>${body}</body></html>`;
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(html, [{ id: "accessibility-wcag", parameters: { standard: "wcag22aa", bestPractices } }]),
  });
  expect(res.status).toBe(200);
  return res.body.results[0] as {
    verdict: string;
    reasoning: string;
    findings: Array<{ selector?: string; message: string; measured?: Record<string, unknown> }>;
  };
}

const AUDIO_RULES = ["no-autoplay-audio", "autoplay-audio-short", "autoplay-audio-has-control"];
/** The audio rules' findings, as "rule" or "rule (needs review)". */
const audioFindings = (r: Awaited<ReturnType<typeof run>>) =>
  r.findings
    .filter((f) => AUDIO_RULES.includes(String(f.measured?.rule)))
    .map((f) => `${f.measured?.rule}${f.measured?.outcome === "needs review" ? " (needs review)" : ""}`)
    .sort();

test("5 s of sound that plays by itself with nothing to stop it fails WCAG 1.4.2, and both of its input rules", async () => {
  const r = await run(`<audio src="${TONE}" autoplay></audio>`);
  expect(r.verdict).toBe("fail");
  expect(audioFindings(r)).toEqual(["autoplay-audio-has-control", "autoplay-audio-short", "no-autoplay-audio"]);
  const wcagOnly = await run(`<audio src="${TONE}" autoplay></audio>`, false);
  expect(audioFindings(wcagOnly)).toEqual(["no-autoplay-audio"]);
});

test("the same sound muted, silent or not autoplaying is no finding", async () => {
  for (const body of [
    `<audio src="${TONE}" autoplay muted></audio>`,
    `<audio src="${SILENT}" autoplay></audio>`,
    `<audio src="${TONE}"></audio>`,
  ]) {
    const r = await run(body);
    expect({ body: body.replace(/data:[^"#]*/, "…"), findings: audioFindings(r) }).toEqual({
      body: body.replace(/data:[^"#]*/, "…"),
      findings: [],
    });
  }
});

test("cut to 2 s by its media fragment, the sound passes WCAG 1.4.2; its 5 s resource still asks for a control (ACT 4c31df)", async () => {
  for (const fragment of ["#t=0,2", "#t=3"]) {
    const r = await run(`<audio src="${TONE}${fragment}" autoplay></audio>`);
    expect({ fragment, findings: audioFindings(r) }).toEqual({ fragment, findings: ["autoplay-audio-has-control"] });
  }
});

test("a 1 s sound in a 4 s file lasts 1 s; looped, it plays without end and fails", async () => {
  const short = wav(4, 1);
  const once = await run(`<audio src="${short}" autoplay></audio>`);
  expect(audioFindings(once)).toEqual(["autoplay-audio-has-control"]);
  const looped = await run(`<audio src="${short}" autoplay loop></audio>`);
  expect(audioFindings(looped)).toEqual(["autoplay-audio-has-control", "autoplay-audio-short", "no-autoplay-audio"]);
});

test("visible native controls are a control mechanism: WCAG 1.4.2 passes, the 3-second rule still fails", async () => {
  const r = await run(`<audio src="${TONE}" autoplay controls></audio>`);
  expect(audioFindings(r)).toEqual(["autoplay-audio-short"]);
});

test("a page's own button that pauses the sound is found by trying it; one that does nothing to it is not a control", async () => {
  const script = (does: string) =>
    `<audio id="a" src="${TONE}" autoplay></audio><button type="button" id="b">Stop the music</button>` +
    `<script>document.getElementById("b").onclick = () => { ${does} };</script>`;
  const pauses = await run(script(`const a = document.getElementById("a"); a.paused ? a.play() : a.pause();`));
  expect(audioFindings(pauses)).toEqual(["autoplay-audio-short"]);
  const mutes = await run(script(`const a = document.getElementById("a"); a.muted = !a.muted;`));
  expect(audioFindings(mutes)).toEqual(["autoplay-audio-short"]);
  const nothing = await run(script(`document.title = "clicked";`));
  expect(audioFindings(nothing)).toEqual(["autoplay-audio-has-control", "autoplay-audio-short", "no-autoplay-audio"]);
  const hidden = await run(
    `<audio id="a" src="${TONE}" autoplay></audio><div aria-hidden="true"><button type="button" onclick="document.getElementById('a').pause()">Pause</button></div>`,
  );
  expect(audioFindings(hidden)).toEqual(["autoplay-audio-has-control", "autoplay-audio-short", "no-autoplay-audio"]);
});

test("a page with a link that was not tried is left for review, not failed", async () => {
  const r = await run(`<audio src="${TONE}" autoplay></audio><a href="/settings">Sound settings</a>`);
  expect(r.verdict).toBe("fail"); // autoplay-audio-short: the sound lasts 5 s
  expect(audioFindings(r)).toEqual([
    "autoplay-audio-has-control (needs review)",
    "autoplay-audio-short",
    "no-autoplay-audio (needs review)",
  ]);
});
