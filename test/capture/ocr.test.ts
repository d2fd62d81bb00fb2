import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { DEFAULT_OCR_OPTIONS, TextReader, type OcrOutcome } from "../../src/capture/ocr";

/**
 * The TextReader over Debian's Tesseract: a job's pictures in one process, each outcome the picture's own (its page
 * of the TSV), each picture bounded in time, the job's time for reading honoured between pictures.
 */
const goToMain = new Uint8Array(readFileSync("corpus/act/test-assets/5effbb/main.png"));
const paragraph = new Uint8Array(readFileSync("corpus/act/test-assets/0va7u6/textimage.jpg"));
/** A white 40×40 picture (PGM: Tesseract reads it by its content, whatever its name). */
const blank = new Uint8Array(Buffer.concat([Buffer.from("P5\n40 40\n255\n"), Buffer.alloc(1600, 255)]));
const words = (o: OcrOutcome | null | undefined) => (o?.ok ? o.words.map((w) => w.text.toLowerCase()) : null);

describe("the text reader", () => {
  test("reads a job's pictures, each picture's words its own (its page of the TSV), a picture without text none", async () => {
    const outcomes = await new TextReader().read([goToMain, blank, paragraph]);
    expect(words(outcomes[0])).toEqual(expect.arrayContaining(["go", "main", "content"]));
    expect(words(outcomes[1])).toEqual([]);
    expect(words(outcomes[2])!.length).toBeGreaterThan(10);
    expect(words(outcomes[2])).not.toContain("main");
  });

  test("a picture that takes longer than its time is stopped, and the pictures after it are read by a new process", async () => {
    const outcomes = await new TextReader({ ...DEFAULT_OCR_OPTIONS, timeoutMs: 1 }).read([goToMain, blank]);
    expect(outcomes).toEqual([
      { ok: false, unavailable: false, error: "Tesseract took longer than 1 ms" },
      { ok: false, unavailable: false, error: "Tesseract took longer than 1 ms" },
    ]);
  });

  test("once the job's time for reading is spent, the pictures not yet read are left (null)", async () => {
    let asked = 0;
    const outcomes = await new TextReader().read([goToMain, paragraph, goToMain], () => asked++ < 1);
    expect(words(outcomes[0])).toContain("main");
    expect(outcomes[2]).toBeNull();
  });

  test("without the binary every picture is unavailable, nothing thrown", async () => {
    const outcomes = await new TextReader({ ...DEFAULT_OCR_OPTIONS, command: "/nonexistent/tesseract" }).read([
      goToMain,
      blank,
    ]);
    expect(outcomes.map((o) => o?.ok === false && o.unavailable)).toEqual([true, true]);
  });
});
