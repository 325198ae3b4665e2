// Hand-made annotated sentences for the CTXPRO engine tests.
import type { AnnSentence } from "../src/annotate/types.js";

/** "text/lemma/UPOS/Feat=V|Feat=V" per token, tokens separated by spaces; the text is the tokens joined. */
export function sent(spec: string): AnnSentence {
  const tokens = spec.split(" ").map((t) => {
    const [text, lemma, upos, feats] = t.split("/");
    const f: Record<string, string> = {};
    if (feats) for (const kv of feats.split("|")) f[kv.split("=")[0]] = kv.split("=")[1];
    return { text, lemma, upos, feats: f };
  });
  return { text: tokens.map((t) => t.text).join(" "), tokens };
}
