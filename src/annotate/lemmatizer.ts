/**
 * Lemmatiser: a lexicon of (form, UPOS) -> lemma seen in training, with learned suffix-rewrite rules
 * ("strip k characters, append s", keyed by UPOS and the form's last letters) for unseen forms.
 * The lexicon keeps only entries the rules get wrong, which keeps the shipped model small.
 */

export interface LemmatizerModel {
  /** "upos\tform" -> lemma, only where the rules are wrong. */
  exceptions: Record<string, string>;
  /** "upos\tsuffix" -> "cut\tappend" (the rule to apply for forms ending in suffix). */
  rules: Record<string, string>;
  maxSuffix: number;
}

function rewriteOf(form: string, lemma: string): string {
  let p = 0;
  while (p < form.length && p < lemma.length && form[p] === lemma[p]) p++;
  return `${form.length - p}\t${lemma.slice(p)}`;
}

function applyRewrite(form: string, rule: string): string {
  const tab = rule.indexOf("\t");
  const cut = Number(rule.slice(0, tab));
  if (cut > form.length) return form;
  return form.slice(0, form.length - cut) + rule.slice(tab + 1);
}

/** Lower-cases a lemma unless the language keeps capitals for this part of speech. */
function caseLemma(lemma: string, upos: string, lang: string): string {
  if (upos === "PROPN" || (lang === "de" && upos === "NOUN")) return lemma;
  return lemma.toLowerCase();
}

/** Forms remembered per UPOS before that memo is emptied (bounds memory on a large corpus). */
const MEMO_MAX = 1 << 16;

export class Lemmatizer {
  /** UPOS -> form -> lemma: a text repeats its words, and each lookup builds several keys. */
  private readonly memo = new Map<string, Map<string, string>>();

  constructor(
    private readonly model: LemmatizerModel,
    private readonly lang: string,
  ) {}

  lemma(form: string, upos: string): string {
    let byForm = this.memo.get(upos);
    if (byForm === undefined) this.memo.set(upos, (byForm = new Map()));
    let lemma = byForm.get(form);
    if (lemma === undefined) {
      if (byForm.size >= MEMO_MAX) byForm.clear();
      lemma = this.compute(form, upos);
      byForm.set(form, lemma);
    }
    return lemma;
  }

  private compute(form: string, upos: string): string {
    const m = this.model;
    const hit = m.exceptions[`${upos}\t${form}`] ?? m.exceptions[`${upos}\t${form.toLowerCase()}`];
    if (hit !== undefined) return hit;
    const key = this.normal(form, upos);
    const rule = this.rule(key, upos);
    return rule ? applyRewrite(key, rule) : caseLemma(key, upos, this.lang);
  }

  /** True when training stored this (form, UPOS) as an exception to the rules (so it was seen). */
  isException(form: string, upos: string): boolean {
    const m = this.model;
    return m.exceptions[`${upos}\t${form}`] !== undefined || m.exceptions[`${upos}\t${form.toLowerCase()}`] !== undefined;
  }

  /** The form the rules operate on: lower-cased except where lemmas keep capitals. */
  private normal(form: string, upos: string): string {
    return caseLemma(form, upos, this.lang);
  }

  private rule(form: string, upos: string): string | undefined {
    const m = this.model;
    for (let k = Math.min(m.maxSuffix, form.length); k >= 0; k--) {
      const r = m.rules[`${upos}\t${form.slice(form.length - k)}`];
      if (r !== undefined) return r;
    }
    return undefined;
  }
}

/** Learns rules and exceptions from (form, upos, lemma) triples. */
export function trainLemmatizer(items: Iterable<{ form: string; upos: string; lemma: string }>, lang: string, maxSuffix = 5): LemmatizerModel {
  const triples = new Map<string, Map<string, number>>(); // upos\tform -> lemma counts
  for (const { form, upos, lemma } of items) {
    if (lemma === "_" || lemma === "") continue;
    const f = caseLemma(form, upos, lang);
    const key = `${upos}\t${f}`;
    let c = triples.get(key);
    if (!c) triples.set(key, (c = new Map()));
    c.set(lemma, (c.get(lemma) ?? 0) + 1);
  }
  // Count rewrites per (upos, suffix): each distinct form votes once so frequent words do not dominate.
  const votes = new Map<string, Map<string, number>>();
  const best = new Map<string, string>();
  for (const [key, c] of triples) {
    const lemma = [...c.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    best.set(key, lemma);
    const tab = key.indexOf("\t");
    const upos = key.slice(0, tab);
    const form = key.slice(tab + 1);
    const rw = rewriteOf(form, lemma);
    for (let k = 0; k <= Math.min(maxSuffix, form.length); k++) {
      const sk = `${upos}\t${form.slice(form.length - k)}`;
      let v = votes.get(sk);
      if (!v) votes.set(sk, (v = new Map()));
      v.set(rw, (v.get(rw) ?? 0) + 1);
    }
  }
  const rules: Record<string, string> = {};
  for (const [sk, v] of votes) {
    const sorted = [...v.entries()].sort((a, b) => b[1] - a[1]);
    const [rw, n] = sorted[0]!;
    const suffixLen = sk.length - sk.indexOf("\t") - 1;
    // Short suffixes always get a rule (the fallback); longer ones only with some evidence.
    if (suffixLen === 0 || n >= 2) rules[sk] = rw;
  }
  // Drop rules that repeat their parent (shorter suffix) rule: same answer, fewer bytes.
  for (const sk of Object.keys(rules)) {
    const tab = sk.indexOf("\t");
    const suf = sk.slice(tab + 1);
    if (suf.length === 0) continue;
    let parent: string | undefined;
    for (let k = suf.length - 1; k >= 0 && parent === undefined; k--) parent = rules[`${sk.slice(0, tab)}\t${suf.slice(suf.length - k)}`];
    if (parent === rules[sk]) delete rules[sk];
  }
  const model: LemmatizerModel = { exceptions: {}, rules, maxSuffix };
  const lem = new Lemmatizer(model, lang);
  for (const [key, lemma] of best) {
    const tab = key.indexOf("\t");
    if (lem.lemma(key.slice(tab + 1), key.slice(0, tab)) !== lemma) model.exceptions[key] = lemma;
  }
  return model;
}
