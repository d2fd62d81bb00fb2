import nspell from "nspell";
// Imported as files so `bun build --compile` embeds the dictionaries in the binary. The packages'
// "exports" hide these paths from bare specifiers, hence the relative paths into node_modules.
import enAff from "../../../../node_modules/dictionary-en/index.aff" with { type: "file" };
import enDic from "../../../../node_modules/dictionary-en/index.dic" with { type: "file" };
import gbAff from "../../../../node_modules/dictionary-en-gb/index.aff" with { type: "file" };
import gbDic from "../../../../node_modules/dictionary-en-gb/index.dic" with { type: "file" };

export interface Speller {
  /** True when American or British English accepts the word. */
  correct(word: string): boolean;
  suggest(word: string): string[];
}

let loaded: Promise<Speller> | undefined;

/** Loads both Hunspell dictionaries once per process (about a second); later calls share them. */
export function loadSpeller(): Promise<Speller> {
  loaded ??= (async () => {
    const read = (path: string) => Bun.file(path).text();
    const [us, gb] = await Promise.all([
      Promise.all([read(enAff), read(enDic)]).then(([aff, dic]) => nspell(aff, dic)),
      Promise.all([read(gbAff), read(gbDic)]).then(([aff, dic]) => nspell(aff, dic)),
    ]);
    return {
      correct: (w) => us.correct(w) || gb.correct(w),
      suggest: (w) => [...new Set([...us.suggest(w), ...gb.suggest(w)])],
    };
  })();
  return loaded;
}
