import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Box } from "./artifact-shapes";

/** One word Tesseract read, its confidence (0-100) and its box in the picture it was given. */
export interface OcrWord {
  text: string;
  confidence: number;
  box: Box;
}

/** What reading one picture came to: its words, or why there are none to give (the engine is missing, it failed). */
export type OcrOutcome =
  | { ok: true; words: OcrWord[]; ms: number }
  | { ok: false; unavailable: boolean; error: string };

export interface TextReaderOptions {
  /** The Tesseract binary (ASSAY_TESSERACT_PATH): a path, or a name looked up on PATH. */
  command: string;
  /** One picture's reading is stopped after this long. */
  timeoutMs: number;
  /** Pictures read at once in this process: each is a Tesseract process of one thread. */
  concurrency: number;
}

export const DEFAULT_OCR_OPTIONS: TextReaderOptions = { command: "tesseract", timeoutMs: 5000, concurrency: 2 };

/**
 * Reads the text in pictures with Tesseract (Debian's tesseract-ocr and its English data, installed by
 * scripts/setup.mjs), offline: one process for a job's pictures (their PNGs in a temporary folder, the list of them
 * on its stdin, TSV on its stdout with each picture's page number), one thread (OMP_THREAD_LIMIT=1), at most
 * `concurrency` processes at once in the process. A process costs about a fifth of a second before it reads anything
 * (loading its model), a picture after the first far less. Each picture is stopped after `timeoutMs`: the process is
 * stopped, and the pictures after it are read by a new one. A missing binary is an outcome (`unavailable`), never a
 * throw, so the checks that read it can say so.
 */
export class TextReader {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly options: TextReaderOptions = DEFAULT_OCR_OPTIONS) {}

  /**
   * Reads PNGs, in order; `stillWanted`, asked when their turn comes and after each picture read, may decline: a
   * job's time for reading is spent, and the pictures not yet read are null.
   */
  async read(pngs: Uint8Array[], stillWanted: () => boolean = () => true): Promise<Array<OcrOutcome | null>> {
    const outcomes: Array<OcrOutcome | null> = pngs.map(() => null);
    if (!pngs.length) return outcomes;
    await this.turn();
    let folder: string | undefined;
    try {
      folder = await mkdtemp(join(tmpdir(), "assay-ocr-"));
      const files = await Promise.all(
        pngs.map(async (png, i) => {
          const file = join(folder!, `${i}.png`);
          await writeFile(file, png);
          return file;
        }),
      );
      let next = 0;
      while (next < pngs.length && stillWanted()) {
        const from = next;
        const run = await this.run(files.slice(from), stillWanted);
        for (const [i, o] of run.outcomes.entries()) outcomes[from + i] = o;
        next = from + run.outcomes.length;
        if (run.stop) break;
      }
      return outcomes;
    } finally {
      if (folder) await rm(folder, { recursive: true, force: true });
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async turn(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
  }

  /**
   * One Tesseract process over `files`: the outcomes of those it read (or failed on), in order, as far as it got;
   * `stop` when the rest are not to be read (the engine cannot run, the job's time is spent, it failed).
   */
  private async run(
    files: string[],
    stillWanted: () => boolean,
  ): Promise<{ outcomes: Array<OcrOutcome | null>; stop: boolean }> {
    let started = performance.now();
    let child: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
    try {
      child = Bun.spawn([this.options.command, "stdin", "stdout", "-l", "eng", "--psm", "3", "tsv"], {
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", OMP_THREAD_LIMIT: "1" },
      });
    } catch (e) {
      const error = `Tesseract could not be started (${(e as Error).message})`;
      return { outcomes: files.map(() => ({ ok: false, unavailable: true, error })), stop: true };
    }
    const pages = new PageReader();
    const outcomes: Array<OcrOutcome | null> = [];
    /** The pictures up to `page` (1-based) are read: those that gave no rows hold no words. */
    const readUpTo = (page: number, words: OcrWord[]) => {
      const now = performance.now();
      while (outcomes.length < page - 1) outcomes.push({ ok: true, words: [], ms: 0 });
      outcomes.push({ ok: true, words, ms: Math.round(now - started) });
      started = now;
    };
    let why: "timeout" | "spent" | null = null;
    const stopWith = (reason: "timeout" | "spent") => {
      why ??= reason;
      child.kill("SIGKILL");
    };
    let timer = setTimeout(() => stopWith("timeout"), this.options.timeoutMs);
    try {
      child.stdin.write(`${files.join("\n")}\n`);
      await child.stdin.end();
      const stderr = new Response(child.stderr).text();
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) {
        if (why) continue;
        // A page's rows come in one write, once it is read: the first row of page n says the pages before it are whole.
        for (const [page, words] of pages.add(decoder.decode(chunk, { stream: true }))) {
          readUpTo(page, words);
          clearTimeout(timer);
          timer = setTimeout(() => stopWith("timeout"), this.options.timeoutMs);
        }
        if (outcomes.length && outcomes.length < files.length && !stillWanted()) stopWith("spent");
      }
      const [code, err] = await Promise.all([child.exited, stderr]);
      if (why === "spent") return { outcomes, stop: true };
      if (why === "timeout") {
        // Nothing came for timeoutMs: the last page begun was whole long before, the next one is the one that took long.
        const last = pages.end();
        if (last) readUpTo(...last);
        outcomes.push(failed(`Tesseract took longer than ${this.options.timeoutMs} ms`));
        return { outcomes, stop: false };
      }
      if (code !== 0) {
        const error = `Tesseract exited with ${code}: ${err.trim().split("\n").pop()}`;
        return { outcomes: [...outcomes, ...files.slice(outcomes.length).map(() => failed(error))], stop: true };
      }
      const last = pages.end();
      if (last) readUpTo(...last);
      while (outcomes.length < files.length) outcomes.push({ ok: true, words: [], ms: 0 });
      return { outcomes, stop: false };
    } catch (e) {
      const error = `Tesseract failed: ${(e as Error).message}`;
      return { outcomes: [...outcomes, ...files.slice(outcomes.length).map(() => failed(error))], stop: true };
    } finally {
      clearTimeout(timer);
    }
  }
}

const failed = (error: string): OcrOutcome => ({ ok: false, unavailable: false, error });

/**
 * Tesseract's TSV of several pages as it streams in: each page's number (1-based) and words once the next page
 * begins, the last one's at the end.
 */
class PageReader {
  private partial = "";
  private rows: string[] = [];
  private page = 0;

  /** Takes a chunk of the TSV; gives the pages it shows to be whole. */
  add(chunk: string): Array<[number, OcrWord[]]> {
    const lines = (this.partial + chunk).split("\n");
    this.partial = lines.pop()!;
    const whole: Array<[number, OcrWord[]]> = [];
    for (const line of lines) {
      const page = Number(line.split("\t", 2)[1]);
      if (!(page > 0)) continue;
      if (page !== this.page) {
        if (this.page) whole.push([this.page, parseTsv(`\n${this.rows.join("\n")}`)]);
        this.page = page;
        this.rows = [];
      }
      this.rows.push(line);
    }
    return whole;
  }

  /** The last page, once the process has ended well; null when no page was begun. */
  end(): [number, OcrWord[]] | null {
    if (this.partial) this.add("\n");
    return this.page ? [this.page, parseTsv(`\n${this.rows.join("\n")}`)] : null;
  }
}

/** The words of Tesseract's TSV (level 5 rows: left, top, width, height, conf, text), blanks left out. */
export function parseTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const line of tsv.split("\n").slice(1)) {
    const f = line.split("\t");
    if (f[0] !== "5" || f.length < 12) continue;
    const text = f.slice(11).join("\t").trim();
    const confidence = Number(f[10]);
    if (!text || !(confidence >= 0)) continue;
    words.push({
      text,
      confidence,
      box: { x: Number(f[6]), y: Number(f[7]), width: Number(f[8]), height: Number(f[9]) },
    });
  }
  return words;
}
