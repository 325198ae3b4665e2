/**
 * Extraction recall against CTXPRO's own items: from each released dev item whose
 * antecedent is in the same segment or the one before (ante distance 0 or 1; formality items have no
 * antecedent and give a one-segment document), build the parallel mini-document (antecedent segment
 * pair, then the segment pair), run identify with the built-in annotators, and count the CTXPRO items
 * we find with the same rule and expected form, and the other items we find in those documents.
 *
 * The aligner of a language is trained on the mini-documents plus every segment pair of that
 * language's dev sets (--align-corpus), as a user with the OpenSubtitles text would do.
 *
 * --part picks the tuning sample (default) or the held-back part of each dev set (src/ctxpro/dev-split.ts);
 * --data may also be a folder of evaluation sets of any name (docs/ctxpro-labels.md).
 *
 *   node dist/scripts/ctxpro-recall.js --langs de,es --max-per-set 800 --out /tmp/recall
 *   node dist/scripts/ctxpro-recall.js --part held-back --out /tmp/recall-held-back
 *
 * Other options (--help describes them): --seed 13 (the subsample's), --inflection paper|ctxpro, identify's
 * --fallback-antecedent [mode], --polish-je-any-gender, --uncovered-case, --no-apertium and --no-align-tags,
 * --coref-dir DIR (another English resolver), and hand-checking samples --gender-sample N and --align-sample N.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseStrict, strictCommand } from "./args.js";
import { defaultAnnotators } from "../src/ctxpro/annotators.js";
import { identifyFiles } from "../src/ctxpro/identify.js";
import { readEvalSet, type CtxproItem } from "../src/ctxpro/items.js";
import { mulberry32, shuffle } from "../src/core/prng.js";
import { builtinRuleSets, loadRuleSet, LANGUAGES, PHENOMENA } from "../src/ctxpro/rules.js";
import { DEV_PARTS, recallEligible, recallSample, type DevPart } from "../src/ctxpro/dev-split.js";
import { FALLBACK_MODES, type FallbackMode } from "../src/ctxpro/engine.js";
import { loadDefaultCoref, loadDefaultMorph } from "../src/annotate/index.js";

const program = strictCommand("ctxpro-recall")
  .option("--data <dir>", "CTXPRO release data (its evalsets/ folder), or a folder of evaluation sets", "../shared/data/ctxpro")
  .option("--part <part>", "which items of each set: 'tuning' (the seed-13 sample the rules were tuned on), 'held-back' (dev items never tuned on) or 'all' (src/ctxpro/dev-split.ts)", "tuning")
  .option("--langs <list>", "languages", LANGUAGES.join(","))
  .option("--max-per-set <n>", "items per evaluation set (random subsample of those with ante distance 0/1)", "800")
  .option("--seed <n>", "subsample seed", "13")
  .option("--out <dir>", "where to write mini-documents, our items and the summary", "ctxpro-recall")
  .option("--gender-sample <n>", "also write n random gender items we extract in fr/es/it, for hand-checking", "0")
  .option("--inflection <mode>", "inflection rule: 'paper' (default, as identify) or 'ctxpro' (the released code, which made the dev sets)", "paper")
  .option("--fallback-antecedent [mode]", "gender/animacy: identify's --fallback-antecedent: 'unique' (default), 'nearest' (the flag alone) or 'off'")
  .option("--polish-je-any-gender", "pl: identify's --polish-je-any-gender ('je' for a masculine or feminine singular antecedent, as the released rules define it)")
  .option("--uncovered-case", "animacy: identify's --uncovered-case (CTXPRO's rule for a pronoun tagged in an uncovered case)")
  .option("--coref-dir <dir>", "English resolver to use: a folder with models/coref-en.json.gz and lexicons/ (default: the shipped data/)")
  .option("--no-apertium", "pl: without Debian's Apertium analyser even where installed (identify's --no-apertium)")
  .option("--no-align-tags", "aligner without the tag anchors (parts of speech and person; identify's --no-align-tags)")
  .option("--align-sample <n>", "also write n random segment pairs with the links of their English pronouns, for hand-checking", "0");
parseStrict(program);
const o = program.opts<{ part: string; alignTags: boolean; apertium: boolean; data: string; corefDir?: string; langs: string; maxPerSet: string; seed: string; out: string; alignSample: string; genderSample: string; inflection: "paper" | "ctxpro"; fallbackAntecedent?: boolean | string; uncoveredCase?: boolean; polishJeAnyGender?: boolean }>();
if (o.inflection !== "paper" && o.inflection !== "ctxpro") throw new Error(`--inflection must be 'paper' or 'ctxpro', got '${o.inflection}'`);
const maxPerSet = Number(o.maxPerSet);
const fail = (msg: string): never => {
  process.stderr.write(`ctxpro-recall: ${msg}\n`);
  process.exit(2);
};
if (!(DEV_PARTS as readonly string[]).includes(o.part)) fail(`--part must be one of ${DEV_PARTS.join(", ")}, got '${o.part}'`);
const part = o.part as DevPart;
if (!Number.isInteger(maxPerSet) || maxPerSet < 1) fail(`--max-per-set must be a positive integer, got '${o.maxPerSet}'`);
const fallbackAntecedent: FallbackMode = o.fallbackAntecedent === undefined ? "unique" : o.fallbackAntecedent === true ? "nearest" : (o.fallbackAntecedent as FallbackMode);
if (!FALLBACK_MODES.includes(fallbackAntecedent)) throw new Error(`--fallback-antecedent must be one of ${FALLBACK_MODES.join(", ")}, got '${o.fallbackAntecedent}'`);

interface SetInfo {
  phenomenon: string;
  lang: string;
  reversed: boolean;
  file: string;
  /** Names the set's mini-documents and output files: the phenomenon for a released dev set, else the file's stem. */
  tag: string;
  /** Stem of the output files: "PHEN.PAIR" for a released dev set, else the file's stem. */
  outName: string;
}

/**
 * Evaluation sets in `dir`: any .json / .json.gz file whose name has a phenomenon and a language pair with English
 * among its dot-separated parts ("formality.opensubtitles.en-es.dev.json.gz", "mini.animacy.pl-en.json",
 * "gender.en-it.test.json"). Other files are returned as skipped, with the reason.
 */
function evalSets(dir: string): { sets: SetInfo[]; skipped: string[] } {
  const sets: SetInfo[] = [];
  const skipped: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    const ext = /\.json(\.gz)?$/.exec(f);
    if (!ext) {
      skipped.push(`${f} (not .json or .json.gz)`);
      continue;
    }
    const stem = f.slice(0, ext.index);
    const parts = stem.split(".");
    const phenomenon = parts.find((x) => (PHENOMENA as readonly string[]).includes(x));
    const pair = parts.map((x) => /^([a-z]{2})-([a-z]{2})$/.exec(x)).find((m) => m && (m[1] === "en") !== (m[2] === "en"));
    if (!phenomenon || !pair) {
      skipped.push(`${f} (${!phenomenon ? `no phenomenon (${PHENOMENA.join(", ")})` : "no language pair with English such as en-de"} among its dot-separated parts)`);
      continue;
    }
    const reversed = pair[2] === "en";
    const lang = reversed ? pair[1]! : pair[2]!;
    if (!(LANGUAGES as readonly string[]).includes(lang)) {
      skipped.push(`${f} (language '${lang}' has no rules; rules exist for ${LANGUAGES.join(", ")})`);
      continue;
    }
    if (!builtinRuleSets().some((r) => r.lang === lang && r.phenomenon === phenomenon)) {
      skipped.push(`${f} (no ${phenomenon} rules for '${lang}')`);
      continue;
    }
    const released = new RegExp(`^${phenomenon}\\.opensubtitles\\.${pair[0]}\\.dev$`).test(stem);
    sets.push({ phenomenon, lang, reversed, file: join(dir, f), tag: released ? phenomenon : stem, outName: released ? `${phenomenon}.${pair[0]}` : stem });
  }
  return { sets, skipped };
}

const clean = (s: unknown) => String(s ?? "").replace(/[\t\r\n]+/g, " ").trim();

/** English and other-language segment pairs of an item's mini-document, in document order. */
function miniDoc(item: CtxproItem, reversed: boolean): Array<[string, string]> {
  const pair = (src: unknown, ref: unknown): [string, string] => (reversed ? [clean(ref), clean(src)] : [clean(src), clean(ref)]);
  const seg = pair(item["src segment"], item["ref segment"]);
  if (item["ante distance"] === 1) return [pair(item["src ante segment"], item["ref ante segment"]), seg];
  return [seg];
}

const norm = (s: unknown) => String(s ?? "").toLowerCase();

mkdirSync(o.out, { recursive: true });
const english = { morph: loadDefaultMorph("en"), coref: loadDefaultCoref(o.corefDir ? join(o.corefDir, "models") : undefined) };
const setDir = existsSync(join(o.data, "evalsets")) ? join(o.data, "evalsets") : o.data;
if (!existsSync(setDir) || !statSync(setDir).isDirectory()) fail(`${setDir}: no such folder of evaluation sets`);
const { sets: all, skipped } = evalSets(setDir);
if (skipped.length) process.stderr.write(`ctxpro-recall: skipped ${skipped.length} file(s) of ${setDir}: ${skipped.join("; ")}\n`);
if (!all.length) fail(`${setDir}: no evaluation set (a .json or .json.gz file named with a phenomenon and a pair such as formality.en-de.dev.json)`);
const rows: string[] = [];
const genderPool: CtxproItem[] = [];
const summary: Record<string, unknown>[] = [];
rows.push("| lang | phenomenon | dev items | with ante dist. 0/1 | used | found (same rule + expected) | share | same expected, other rule | other items found | seconds |");
rows.push("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");

for (const lang of o.langs.split(",")) {
  const sets = all.filter((s) => s.lang === lang);
  if (!sets.length) continue;
  const t0 = performance.now();
  const tsv: string[] = [];
  const extra = new Set<string>();
  const used: Array<{ set: SetInfo; items: CtxproItem[]; total: number; eligible: number }> = [];
  for (const set of sets) {
    const items = readEvalSet(set.file);
    for (const it of items) {
      // Every segment pair of the language's dev sets trains the aligner.
      for (const [en, other] of [...miniDoc({ ...it, "ante distance": 1 }, set.reversed)]) if (en && other) extra.add(`${en}\t${other}`);
    }
    const eligible = recallEligible(items);
    const chosen = recallSample(eligible, part, maxPerSet, Number(o.seed));
    chosen.forEach((it, k) => {
      for (const [en, other] of miniDoc(it, set.reversed)) tsv.push(`${set.tag}#${k}\t${en}\t${other}`);
    });
    used.push({ set, items: chosen, total: items.length, eligible: eligible.length });
  }
  // Pairs already in the input train the aligner anyway; do not count them twice.
  for (const line of tsv) extra.delete(line.slice(line.indexOf("\t") + 1));
  const input = join(o.out, `mini.${lang}.tsv`);
  const extraFile = join(o.out, `align-extra.${lang}.tsv`);
  writeFileSync(input, tsv.join("\n") + "\n");
  // A language whose dev sets hold no pair beyond the mini-documents has no extra corpus.
  if (extra.size) writeFileSync(extraFile, [...extra].join("\n") + "\n");
  const phenomena = new Set(sets.map((s) => s.phenomenon));
  const ruleSets = builtinRuleSets()
    .filter((s) => s.lang === lang && phenomena.has(s.phenomenon))
    .map((s) => loadRuleSet(s.name, lang));
  const ann = await defaultAnnotators(lang, { english, alignCorpus: extra.size ? [extraFile] : [], tagAnchors: o.alignTags, apertium: o.apertium });
  const { found, stats } = await identifyFiles([input], lang, ruleSets, ann, { check: false, inflection: o.inflection, fallbackAntecedent, uncoveredCase: !!o.uncoveredCase, polishJeAnyGender: !!o.polishJeAnyGender });
  const secs = (performance.now() - t0) / 1000;
  process.stderr.write(`${lang}: ${stats.pairs} pairs in ${stats.docs} mini-documents, ${secs.toFixed(0)} s\n`);
  process.stderr.write(`${lang}: noun lexicon ${ann.morph.tgt.nouns?.name ?? "none"}\n`);
  const ag = ann.aligner.agreement!;
  const agreement = { pairs: ann.aligner.size, ...ag, intersectionOverUnion: ag.both / (ag.forward + ag.reverse - ag.both), ofForward: ag.both / ag.forward, ofReverse: ag.both / ag.reverse };
  process.stderr.write(`${lang}: aligner trained on ${ann.aligner.size} pairs; forward/backward Viterbi agreement ${(100 * agreement.intersectionOverUnion).toFixed(1)}% (|F∩R|/|F∪R|), ${(100 * agreement.ofForward).toFixed(1)}% of forward, ${(100 * agreement.ofReverse).toFixed(1)}% of reverse links\n`);
  writeFileSync(join(o.out, `agreement.${lang}.json`), JSON.stringify(agreement, null, 1) + "\n");
  const nSample = Number(o.alignSample);
  if (nSample > 0) {
    // Random segment pairs of the input with at least one English pronoun the rules use.
    const PRONOUNS = new Set(["it", "they", "them", "you", "he", "she", "him", "her", "its", "their", "his", "hers", "mine", "yours", "ours", "theirs", "we", "us", "i", "me", "my", "your", "our"]);
    const pairs = [...new Set(tsv.map((l) => l.slice(l.indexOf("\t") + 1)))].map((l) => l.split("\t") as [string, string]);
    shuffle(pairs, mulberry32(Number(o.seed) + 1));
    const lines: string[] = [];
    let taken = 0;
    for (const [en, other] of pairs) {
      if (taken >= nSample) break;
      const e = ann.morph.en.annotate(en);
      const t = ann.morph.tgt.annotate(other);
      const pro = e.tokens.map((x, i) => (PRONOUNS.has(x.text.toLowerCase()) && x.upos === "PRON" ? i : -1)).filter((i) => i >= 0);
      if (!pro.length || e.tokens.length > 40) continue;
      taken++;
      const links = ann.aligner.alignPair(e.tokens.map((x) => x.text), t.tokens.map((x) => x.text), { en: e.tokens, other: t.tokens });
      lines.push(`${taken}. EN: ${en}`, `   ${lang.toUpperCase()}: ${other}`);
      for (const i of pro) {
        const l = links.filter((x) => x[0] === i).map((x) => `${t.tokens[x[1]]!.text} (${x[1]}, ${t.tokens[x[1]]!.upos})`);
        lines.push(`   - ${e.tokens[i]!.text} (${i}) -> ${l.length ? l.join(", ") : "(no link)"}`);
      }
    }
    writeFileSync(join(o.out, `align-sample.${lang}.md`), lines.join("\n") + "\n");
  }
  for (const u of used) {
    const rs = ruleSets.find((r) => r.phenomenon === u.set.phenomenon)!;
    const ours = (found.get(rs.name) ?? []).filter((x) => String(x["document id"]).startsWith(`${u.set.tag}#`));
    const byDoc = new Map<string, CtxproItem[]>();
    for (const x of ours) byDoc.set(String(x["document id"]), [...(byDoc.get(String(x["document id"])) ?? []), x]);
    let same = 0;
    let sameExpected = 0;
    let matched = 0;
    const perRule = new Map<string, [number, number]>();
    const detail: unknown[] = [];
    u.items.forEach((it, k) => {
      const mine = byDoc.get(`${u.set.tag}#${k}`) ?? [];
      const seg = it["ante distance"] === 1 ? 2 : 1;
      const atSeg = mine.filter((x) => x["segment id"] === seg);
      const hit = atSeg.find((x) => x.rule === it.rule && norm(x.expected) === norm(it.expected));
      const hitExp = !hit && atSeg.find((x) => norm(x.expected) === norm(it.expected));
      if (hit) same++;
      else if (hitExp) sameExpected++;
      matched += hit || hitExp ? 1 : 0;
      const r = perRule.get(String(it.rule)) ?? [0, 0];
      perRule.set(String(it.rule), [r[0] + (hit ? 1 : 0), r[1] + 1]);
      detail.push({ k, rule: it.rule, expected: it.expected, found: hit ? "same" : hitExp ? "expected" : "no", ours: mine.map((x) => [x["segment id"], x.rule, x.expected]) });
    });
    const others = ours.length - matched;
    const share = u.items.length ? (100 * same) / u.items.length : 0;
    const pair = u.set.reversed ? `${lang}-en` : `en-${lang}`;
    // A set with no item in the part (a held-back part of a set tuned on whole) has no share.
    rows.push(`| ${pair} | ${u.set.tag === u.set.phenomenon ? u.set.phenomenon : `${u.set.phenomenon} (${u.set.tag})`} | ${u.total} | ${u.eligible} | ${u.items.length} | ${same} | ${u.items.length ? `${share.toFixed(1)}%` : "-"} | ${sameExpected} | ${others} | ${secs.toFixed(0)} |`);
    summary.push({
      lang, pair, phenomenon: u.set.phenomenon, file: u.set.file, part, devItems: u.total, eligible: u.eligible, used: u.items.length, same, sameExpected, others,
      perRule: Object.fromEntries([...perRule].sort((a, b) => b[1][1] - a[1][1])),
    });
    if (u.set.phenomenon === "gender" && ["fr", "es", "it"].includes(lang)) genderPool.push(...ours.map((x) => ({ ...x, lang })));
    writeFileSync(join(o.out, `ours.${u.set.outName}.json`), JSON.stringify(ours, null, 1) + "\n");
    writeFileSync(join(o.out, `ctxpro.${u.set.outName}.json`), JSON.stringify(u.items, null, 1) + "\n");
    writeFileSync(join(o.out, `detail.${u.set.outName}.json`), JSON.stringify(detail) + "\n");
  }
  writeFileSync(join(o.out, `summary.${lang}.json`), JSON.stringify(summary.filter((s) => s.lang === lang), null, 1) + "\n");
}
const nGender = Number(o.genderSample);
if (nGender > 0) {
  shuffle(genderPool, mulberry32(Number(o.seed) + 2));
  const lines: string[] = [];
  genderPool.slice(0, nGender).forEach((x, k) => {
    lines.push(`${k + 1}. [${x.lang}] ${x.rule}: *${x["src pronoun"]}* -> **${x.expected}**; antecedent *${x["src ante head"]}* -> *${x["ref ante head"]}* (${x["ref ante head morpho"]}), distance ${x["ante distance"]}`);
    if (x["ante distance"] !== 0) lines.push(`   - EN ante: ${x["src ante segment"]}`, `   - ${String(x.lang).toUpperCase()} ante: ${x["ref ante segment"]}`);
    lines.push(`   - EN: ${x["src segment"]}`, `   - ${String(x.lang).toUpperCase()}: ${x["ref segment"]}`);
  });
  writeFileSync(join(o.out, "gender-sample.md"), lines.join("\n") + "\n");
}
process.stdout.write(rows.join("\n") + "\n");
