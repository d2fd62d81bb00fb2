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
 * scripts/setup.mjs), offline: one process per picture, the PNG on its stdin, TSV on its stdout, one thread each
 * (OMP_THREAD_LIMIT=1), at most `concurrency` at once in the process, each stopped after `timeoutMs`. A missing
 * binary is an outcome (`unavailable`), never a throw, so the checks that read it can say so.
 */
export class TextReader {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly options: TextReaderOptions = DEFAULT_OCR_OPTIONS) {}

  /** Reads one PNG; `stillWanted`, asked once its turn comes, may decline (null): a job's time for reading is spent. */
  async read(png: Uint8Array): Promise<OcrOutcome>;
  async read(png: Uint8Array, stillWanted: () => boolean): Promise<OcrOutcome | null>;
  async read(png: Uint8Array, stillWanted: () => boolean = () => true): Promise<OcrOutcome | null> {
    await this.turn();
    try {
      if (!stillWanted()) return null;
      return await this.run(png);
    } finally {
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

  private async run(png: Uint8Array): Promise<OcrOutcome> {
    const started = performance.now();
    let child: ReturnType<typeof Bun.spawn<"pipe", "pipe", "pipe">>;
    try {
      child = Bun.spawn([this.options.command, "stdin", "stdout", "-l", "eng", "--psm", "3", "tsv"], {
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", OMP_THREAD_LIMIT: "1" },
      });
    } catch (e) {
      return { ok: false, unavailable: true, error: `Tesseract could not be started (${(e as Error).message})` };
    }
    const timer = setTimeout(() => child.kill("SIGKILL"), this.options.timeoutMs);
    try {
      child.stdin.write(png);
      await child.stdin.end();
      const [out, err, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      if (child.signalCode === "SIGKILL")
        return { ok: false, unavailable: false, error: `Tesseract took longer than ${this.options.timeoutMs} ms` };
      if (code !== 0)
        return {
          ok: false,
          unavailable: false,
          error: `Tesseract exited with ${code}: ${err.trim().split("\n").pop()}`,
        };
      return { ok: true, words: parseTsv(out), ms: Math.round(performance.now() - started) };
    } catch (e) {
      return { ok: false, unavailable: false, error: `Tesseract failed: ${(e as Error).message}` };
    } finally {
      clearTimeout(timer);
    }
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
