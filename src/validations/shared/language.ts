/**
 * What is wrong with an <html lang> value, or null when it names a language. BCP 47's "und" (undetermined,
 * MJML's default) is a valid tag that names no language: a screen reader falls back to its own voice.
 */
export function langProblem(lang: string | null): { message: string; reasoning: string } | null {
  if (lang === null) return { message: "<html> has no lang attribute", reasoning: "<html> has no lang attribute." };
  const tag = lang.trim();
  if (!tag) return { message: "<html lang> is empty", reasoning: "<html lang> is empty." };
  if (tag.split("-")[0]!.toLowerCase() === "und")
    return {
      message: `<html lang="${tag}"> names no language`,
      reasoning: `<html lang="${tag}"> is BCP 47's "undetermined": it names no language, so a screen reader cannot pick the right voice.`,
    };
  return null;
}
