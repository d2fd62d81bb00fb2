/**
 * Latin placeholder copy ("lorem ipsum" and its generators' output), found by its vocabulary rather than by
 * a few phrases: a run of words most of which are filler vocabulary. Read by no-lorem-ipsum and
 * email-no-lorem-ipsum.
 */

/** The words lorem-ipsum generators draw from (the classic passage and the common generators' lists). */
const FILLER_WORDS = new Set(
  `lorem ipsum dolor amet consectetur consectetuer adipiscing adipisci elit sed do eiusmod tempor incididunt labore dolore
  magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip commodo consequat duis aute irure
  reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat proident sunt culpa qui
  officia deserunt mollit anim laborum ac accumsan aenean aliquam aliquet ante arcu auctor augue bibendum blandit
  condimentum congue convallis cras curabitur cursus dapibus diam dictum dictumst dignissim donec dui egestas eget
  eleifend elementum erat eros etiam eu euismod facilisi facilisis fames faucibus felis fermentum feugiat fringilla fusce
  gravida habitant habitasse hac hendrerit iaculis imperdiet integer interdum justo lacinia lacus laoreet lectus leo
  libero ligula lobortis luctus maecenas malesuada massa mattis mauris metus molestie mollis montes morbi nascetur natoque
  nec neque netus nibh nisl nullam nunc odio orci ornare parturient pellentesque penatibus pharetra phasellus placerat
  platea porta porttitor posuere potenti praesent pretium proin pulvinar purus quam quisque rhoncus ridiculus risus
  rutrum sagittis sapien scelerisque sem semper senectus sociis sodales sollicitudin suscipit suspendisse tellus tempus
  tincidunt tortor tristique turpis ullamcorper ultrices ultricies urna varius vehicula vel venenatis vestibulum vitae
  vivamus viverra volutpat vulputate et ut`.split(/\s+/),
);

/** Filler words that are also everyday English (or common in other languages' prose): they count for neither side. */
const NEUTRAL = new Set([
  "a",
  "at",
  "in",
  "id",
  "ex",
  "ea",
  "mi",
  "sit",
  "non",
  "est",
  "do",
  "nam",
  "magna",
  "porta",
  "massa",
  "diam",
  "mus",
  "dis",
]);

/** Phrases that are filler wherever they stand, however short the text. */
const CLASSIC = /\blorem ipsum\b|\bdolor sit amet\b|\bconsectetur adipiscing\b/i;

/** Words looked at together, at least this many filler words, and the share of them that must be filler. */
const WINDOW = 8;
const MIN_FILLER_WORDS = 3;
const MIN_SHARE = 0.75;

export interface FillerText {
  /** Where the filler starts in the text, and a snippet of it. */
  index: number;
  snippet: string;
}

/** The first run of Latin filler in the text (each line read on its own), or null. */
export function findFillerText(text: string): FillerText | null {
  const classic = CLASSIC.exec(text);
  let first: number | null = classic ? classic.index : null;
  let offset = 0;
  for (const line of text.split("\n")) {
    const words = [...line.matchAll(/\p{L}+/gu)]
      .map((m) => ({ word: m[0].toLowerCase(), index: offset + m.index! }))
      .filter((w) => !NEUTRAL.has(w.word));
    const size = Math.min(WINDOW, words.length);
    for (let start = 0; size >= MIN_FILLER_WORDS && start + size <= words.length; start++) {
      const window = words.slice(start, start + size);
      const filler = window.filter((w) => FILLER_WORDS.has(w.word)).length;
      if (filler >= MIN_FILLER_WORDS && filler / size >= MIN_SHARE) {
        first = Math.min(first ?? Infinity, window.find((w) => FILLER_WORDS.has(w.word))!.index);
        break;
      }
    }
    offset += line.length + 1;
  }
  return first === null
    ? null
    : {
        index: first,
        snippet: text
          .slice(first, first + 60)
          .replace(/\s+/g, " ")
          .trim(),
      };
}
