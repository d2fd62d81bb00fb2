/**
 * What the audio-control rules (autoplay-audio.ts) read of each `<audio>`/`<video>` that plays by itself, measured
 * in Assay's isolated world before axe runs, and left there (globalThis.assayMediaReadings) for the rules' checks.
 *
 * - Plays automatically: it has `autoplay`, or it is playing (or has played) with no one having touched the page.
 *   Chromium runs with --autoplay-policy=no-user-gesture-required (chromium-launch.ts), so a page's sound starts as
 *   it would for a visitor whose browser lets it; waited for until it plays or fails, at most `waitMs`.
 * - Not muted: neither `muted` nor a volume of 0.
 * - Its sound: the resource (currentSrc without its fragment) fetched by the page's own network (the guard's
 *   limits) and decoded with Web Audio: audible where a sample reaches `silenceLevel` (-60 dBFS, the level ffmpeg's
 *   silencedetect calls silence). A resource Web Audio cannot decode is silent only when its element, having
 *   played, decoded no audio byte (no audio track); else, like one that cannot be read (another origin without
 *   CORS, over the network's 10 MB), it stays unknown.
 * - How long it sounds: from the first to the last audible sample of the part that plays, which starts and ends
 *   where the media fragment (`#t=start,end`) says, else at 0 and the end; `loop` plays it without end.
 * - A control: the element's own visible `controls`; else a button of the page (visible, named, in the
 *   accessibility tree, not submitting a form) that pauses or mutes it when activated, found by activating each in
 *   turn (one that works is activated again, the page's own way back); `false` only when the page has nothing
 *   else a visitor could operate.
 */
export interface MediaReading {
  /** Why the rules cannot apply, or cannot be decided ("unknown: ..."); absent when it plays sound by itself. */
  skip?: string;
  /** Seconds from the first to the last audible sample of the part that plays (Infinity when it loops). */
  sounds: number;
  /** Whether a visible, named instrument pauses or mutes it; undefined when that could not be settled. */
  controlled?: boolean;
}

export interface MediaProbeOptions {
  waitMs: number;
  silenceLevel: number;
}

export const MEDIA_PROBE_OPTIONS: MediaProbeOptions = { waitMs: 3000, silenceLevel: 0.001 };

/** Runs in the page's isolated world, serialised: self-contained. */
export async function probeMedia({ waitMs, silenceLevel }: MediaProbeOptions): Promise<number> {
  const readings = new Map<Element, MediaReading>();
  (globalThis as unknown as { assayMediaReadings: Map<Element, MediaReading> }).assayMediaReadings = readings;
  const all = [...document.querySelectorAll("audio, video")] as HTMLMediaElement[];
  const candidates = all.filter((m) => m.autoplay || !m.paused || m.played.length > 0);
  if (!candidates.length) return 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const silent = (m: HTMLMediaElement) => m.muted || m.volume === 0;
  // Muted media (a hero video) is not waited for; nor is media with no source to load (a lazy one's empty src).
  const settled = (m: HTMLMediaElement) =>
    silent(m) ||
    m.error !== null ||
    m.networkState === m.NETWORK_EMPTY ||
    m.networkState === m.NETWORK_NO_SOURCE ||
    (m.readyState >= 1 && (!m.paused || m.ended));
  for (let waited = 0; waited < waitMs && !candidates.every(settled); waited += 100) await sleep(100);

  const visible = (el: Element) => {
    const style = getComputedStyle(el);
    return style.visibility === "visible" && [...el.getClientRects()].some((r) => r.width > 0 && r.height > 0);
  };
  const inTree = (el: Element) => !el.closest('[aria-hidden="true"], [inert]');
  const nameOf = (el: Element): string => {
    const ids = el.getAttribute("aria-labelledby");
    const labelled = ids
      ?.split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" ");
    const images = [...el.querySelectorAll("img[alt], svg title")].map((i) => i.getAttribute("alt") ?? i.textContent);
    return [
      labelled,
      el.getAttribute("aria-label"),
      (el as HTMLElement).innerText,
      images.join(" "),
      el.getAttribute("title"),
      el instanceof HTMLInputElement ? el.value : "",
    ]
      .filter((s) => s?.trim())
      .join(" ")
      .trim();
  };
  const operable = [
    ...document.querySelectorAll(
      "a[href], button, input:not([type=hidden]), select, textarea, summary, [role], [tabindex]:not([tabindex^='-']), [contenteditable=''], [contenteditable=true]",
    ),
  ].filter(
    (el) =>
      !(el instanceof HTMLMediaElement) &&
      (!el.hasAttribute("role") ||
        /^(button|link|switch|checkbox|slider|menuitem\w*|tab|option|radio|spinbutton)$/.test(
          el.getAttribute("role")!,
        ) ||
        el.matches("a[href], button, input, select, textarea, summary, [tabindex]")) &&
      !(el as HTMLButtonElement).disabled &&
      visible(el) &&
      inTree(el) &&
      nameOf(el) !== "",
  );
  const tryable = operable.filter(
    (el) =>
      el.matches("button[type=button], input[type=button], [role=button], [role=switch], [role=checkbox]") ||
      (el instanceof HTMLButtonElement && !el.form && el.type !== "reset"),
  );
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const silenced = (m: HTMLMediaElement, before: { paused: boolean; muted: boolean; volume: number }) =>
    (m.paused && !before.paused) || (m.muted && !before.muted) || (m.volume === 0 && before.volume > 0);
  // Its own visible controls; a button that silences it when tried; none where nothing else could be operated.
  const controlOf = async (m: HTMLMediaElement): Promise<boolean | undefined> => {
    if (m.controls && visible(m) && inTree(m)) return true;
    for (const el of tryable) {
      const before = { paused: m.paused, muted: m.muted, volume: m.volume };
      (el as HTMLElement).click();
      await frame();
      if (!silenced(m, before)) continue;
      (el as HTMLElement).click();
      await frame();
      if (m.muted !== before.muted) m.muted = before.muted;
      if (m.volume !== before.volume) m.volume = before.volume;
      if (m.paused && !before.paused) await m.play().catch(() => undefined);
      return true;
    }
    // Links or fields no one tried may still be the control: that needs review.
    return operable.length > tryable.length ? undefined : false;
  };

  const seconds = (t: string | undefined) => {
    if (t === undefined || t === "") return undefined;
    const parts = t.replace(/^npt:/, "").split(":").map(Number);
    const s = parts.reduce((acc, p) => acc * 60 + p, 0);
    return Number.isFinite(s) ? s : undefined;
  };
  for (const m of candidates) {
    const base = { sounds: 0 };
    if (silent(m)) {
      readings.set(m, { ...base, skip: "it is muted" });
      continue;
    }
    if (m.error || !m.currentSrc) {
      readings.set(m, { ...base, skip: "it has no playable source" });
      continue;
    }
    if (m.readyState < 1) {
      readings.set(m, { ...base, skip: "unknown: it had not loaded its metadata" });
      continue;
    }
    if (m.paused && !m.ended && m.played.length === 0) {
      readings.set(m, { ...base, skip: "it is not playing" });
      continue;
    }
    if (!(m.duration > 3)) {
      readings.set(m, { ...base, skip: "its resource lasts 3 seconds or less" });
      continue;
    }
    const [url, fragment] = m.currentSrc.split("#");
    const range = /(?:^|&)t=([^,&]*)(?:,([^&]*))?/.exec(fragment ?? "");
    const start = Math.max(0, seconds(range?.[1]) ?? 0);
    const end = Math.min(m.duration, seconds(range?.[2]) ?? m.duration);
    let samples: AudioBuffer | null = null;
    try {
      const res = await fetch(url!);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const bytes = await res.arrayBuffer();
      samples = await new OfflineAudioContext(1, 1, 44100).decodeAudioData(bytes).catch(() => null);
    } catch (e) {
      readings.set(m, { ...base, skip: `unknown: its resource could not be read (${(e as Error).message})` });
      continue;
    }
    if (!samples) {
      const played = m.currentTime > start + 0.5;
      const quiet =
        played && (m as unknown as { webkitAudioDecodedByteCount?: number }).webkitAudioDecodedByteCount === 0;
      readings.set(m, {
        ...base,
        skip: quiet ? "it has no audio track" : "unknown: its audio could not be decoded",
      });
      continue;
    }
    let first = -1;
    let last = -1;
    let audible = false;
    const from = Math.floor(start * samples.sampleRate);
    const to = Math.min(samples.length, Math.ceil(end * samples.sampleRate));
    for (let c = 0; c < samples.numberOfChannels; c++) {
      const data = samples.getChannelData(c);
      for (let i = 0; i < data.length; i++) {
        if (Math.abs(data[i]!) < silenceLevel) continue;
        audible = true;
        if (i < from || i >= to) continue;
        if (first < 0 || i < first) first = i;
        if (i > last) last = i;
      }
    }
    if (!audible) {
      readings.set(m, { ...base, skip: "its audio is silent" });
      continue;
    }
    const span = first < 0 ? 0 : (last - first) / samples.sampleRate;
    const sounds = m.loop && span > 0 ? Number.POSITIVE_INFINITY : span;
    readings.set(m, { sounds, controlled: await controlOf(m) });
  }
  return candidates.length;
}
