import type { Command } from "commander";
import { action, intOption, floatOption, rangeOption, emit, checkOutputs } from "./run.js";
import { PRETRAIN_DEFAULTS } from "../pretrain/defaults.js";
import { archFromOptions } from "../pretrain/arch.js";
import { InputError } from "../io/errors.js";
import { checkOutputDir } from "../io/atomic.js";
import { LSTM_IMPLS, type LstmImpl } from "../nn/lstm-impl.js";
import { makeSignature } from "../signature.js";
import { basename } from "node:path";

export function registerPretrain(program: Command): void {
  registerPretrainOnTop(program);
  const d = PRETRAIN_DEFAULTS;
  program
    .command("pretrain")
    .description("Masked-pronoun pretraining of an encoder (BiLSTM or Transformer over GloVe) on an English corpus (scripts/build-pretrain-corpus.ts); resumable; data-parallel on --workers threads; zero-shot dev accuracy along the way")
    .requiredOption("--corpus <file>", "corpus JSONL(.gz) from scripts/build-pretrain-corpus.ts")
    .requiredOption("-o, --output <dir>", "output directory (model, resume.ckpt, curve.json)")
    .option("--force", "start a new run in a directory that holds one (default: refuse; --resume continues it)", false)
    .option("--dev <file>", "pair file for zero-shot accuracy at each evaluation (wmt23 dev)")
    .option("--max-dev-pairs <n>", "seeded subset of dev pairs (0 = all)", String(d.maxDevPairs))
    .option("--encoder <kind>", "bilstm (the shipped models' encoder) | transformer (pre-LN, over the same GloVe vectors)", "bilstm")
    .option("--hidden <n>", "bilstm: units per direction", String(d.hidden))
    .option("--layers <n>", "encoder layers (default: bilstm 1, transformer 4)")
    .option("--model-width <n>", "transformer: model width (--width is the decimals of printed scores elsewhere)", "256")
    .option("--heads <n>", "transformer: attention heads (default: width / 64)")
    .option("--ffn <n>", "transformer: feed-forward inner size (default: 4 x width)")
    .option("--positions <p>", "transformer: learned | sinusoidal", "learned")
    .option("--workers <n>", "data-parallel threads, each with its own tfjs backend; gradients averaged every step (1 = this thread only)", "1")
    .option("--dropout <x>", "dropout on embeddings and BiLSTM outputs", String(d.dropout))
    .option("--batch-size <n>", "windows per step", String(d.batchSize))
    .option("--lr <x>", "Adam learning rate", String(d.lr))
    .option("--seed <n>", "seed (initialisation, order, masks)", String(d.seed))
    .option("--vocab-cap <n>", "embedding vocabulary size", String(d.vocabCap))
    .option("--checkpoint-every <n>", "steps between resume checkpoints", String(d.checkpointEvery))
    .option("--eval-every <n>", "steps between zero-shot dev evaluations (and model saves)", String(d.evalEvery))
    .option("--max-steps <n>", "stop after this many steps in total (0 = no limit)", "0")
    .option("--max-minutes <x>", "stop after this many minutes in this run (0 = no limit)", "0")
    .option("--max-docs <n>", "use only the first N corpus documents (0 = all)", "0")
    .option("--resume", "continue from <out>/resume.ckpt", false)
    .option("--init <dir>", "continued pretraining: start from this masked-pronoun model (its weights, vocabulary and vectors; same encoder options) instead of random weights")
    .option("--keep-snapshots", "also keep the model of every evaluation in <out>/snapshots/step-N (for scripts/average-pronoun-lm.ts)", false)
    .option("--backend <name>", "auto | gpu (tfjs-node-gpu, CUDA) | webgpu (Dawn) | node | wasm | cpu (docs/gpu.md)", d.backend)
    .option("--lstm-impl <impl>", "auto (graph on a GPU backend, else js) | js | graph (whole recurrence as tfjs ops, no per-step read-back)", "auto")
    .option("--objective <name>", "masked (predict a masked pronoun) | replaced (detect a pronoun swapped for a real system confusion)", "masked")
    .option("--confusions <file>", "replaced: pair file whose R-vs-S pairs give the swaps (e.g. out/pairs/train.jsonl.gz)")
    .option("-q, --quiet", "no progress on stderr (the one-line result still goes to stdout)", false)
    .action(
      action(async (o: Record<string, unknown>) => {
        if (!LSTM_IMPLS.includes(o.lstmImpl as LstmImpl)) throw new InputError(`--lstm-impl must be ${LSTM_IMPLS.join(", ")}, got '${String(o.lstmImpl)}'`);
        if (o.objective !== "masked" && o.objective !== "replaced") throw new InputError(`--objective must be masked or replaced, got '${String(o.objective)}'`);
        if (o.corpus === "-") throw new InputError("--corpus is read once per epoch (and sampled for the prior), so it cannot be standard input ('-'): give a file");
        // Every number is checked before the output directory is created (a bad one leaves nothing behind).
        const encoder = String(o.encoder);
        const optInt = (name: string, v: unknown): number | undefined => (v === undefined ? undefined : intOption(name, String(v), 1));
        const arch = archFromOptions({
          encoder,
          hidden: intOption("--hidden", String(o.hidden), 1),
          layers: optInt("--layers", o.layers),
          width: optInt("--model-width", o.modelWidth),
          heads: optInt("--heads", o.heads),
          ffn: optInt("--ffn", o.ffn),
          positions: String(o.positions),
          maxLen: d.maxLen,
        });
        if (arch.kind === "glove-transformer" && o.lstmImpl !== "auto") throw new InputError("--lstm-impl applies to --encoder bilstm only");
        if (arch.kind === "glove-bilstm" && arch.layers > 1 && o.lstmImpl === "graph") throw new InputError("a stacked BiLSTM (--layers > 1) runs with --lstm-impl js only");
        const num = {
          maxDevPairs: intOption("--max-dev-pairs", String(o.maxDevPairs), 0),
          hidden: arch.kind === "glove-bilstm" ? arch.hidden : arch.width,
          workers: intOption("--workers", String(o.workers), 1),
          dropout: rangeOption("--dropout", String(o.dropout), 0, 1, { hi: true }),
          batchSize: intOption("--batch-size", String(o.batchSize), 1),
          lr: rangeOption("--lr", String(o.lr), 0, Infinity, { lo: true }),
          seed: intOption("--seed", String(o.seed), 0),
          vocabCap: intOption("--vocab-cap", String(o.vocabCap), 100),
          checkpointEvery: intOption("--checkpoint-every", String(o.checkpointEvery), 1),
          evalEvery: intOption("--eval-every", String(o.evalEvery), 1),
          maxSteps: intOption("--max-steps", String(o.maxSteps), 0),
          maxMinutes: rangeOption("--max-minutes", String(o.maxMinutes), 0, Infinity),
          maxDocs: intOption("--max-docs", String(o.maxDocs), 0),
        };
        checkOutputDir(String(o.output), { overwrite: Boolean(o.resume || o.force), what: "a pretraining run", flags: "--resume (continue) or --force (start over)" });
        const { pretrain, PretrainStoppedError } = await import("../pretrain/train.js");
        const run = pretrain({
          ...num,
          arch,
          corpus: String(o.corpus),
          out: String(o.output),
          dev: o.dev as string | undefined,
          clip: d.clip,
          maxLen: d.maxLen,
          contextSentences: d.contextSentences,
          resume: Boolean(o.resume),
          backend: String(o.backend),
          // A stacked BiLSTM has the js implementation only.
          lstmImpl: arch.kind === "glove-bilstm" && arch.layers > 1 ? "js" : (o.lstmImpl as LstmImpl),
          objective: o.objective,
          confusions: o.confusions as string | undefined,
          quiet: Boolean(o.quiet),
          keepSnapshots: Boolean(o.keepSnapshots),
          ...(o.init !== undefined ? { init: String(o.init) } : {}),
        }, o.quiet ? () => {} : undefined);
        let r: Awaited<typeof run>;
        try {
          r = await run;
        } catch (e) {
          // A worker thread died or the loss stopped being finite: not bad input, not a bug; one line, and what to do.
          if (!(e instanceof PretrainStoppedError)) throw e;
          process.stderr.write(`proneval: error: ${e.message}\n`);
          process.exitCode = 1;
          return;
        }
        await emit(`steps ${r.steps}, ${(r.seconds / 60).toFixed(1)} min of training in total, stopped: ${r.stopped}\n`);
      }),
    );
}

/** `proneval pretrain-ontop`: the attention ranker on the frozen pretrained encoder (docs/pretrain.md). */
export function registerPretrainOnTop(program: Command): void {
  program
    .command("pretrain-ontop")
    .description("Train the attention ranker (margin loss, mined pairs) on top of a frozen masked-pronoun model and report wmt23 dev accuracy against its zero-shot scores")
    .requiredOption("--lm <dir>", "masked-pronoun model directory (proneval pretrain -o)")
    .requiredOption("--train <file>", "training pair file (CRC)")
    .requiredOption("--dev <file>", "dev pair file (CRC)")
    .option("--variant <v>", "frozen | frozen+lp | finetune (encoder trained too, margin + masked-pronoun loss)", "frozen+lp")
    .option("--corpus <file>", "finetune: the pretraining corpus, for the masked-pronoun loss")
    .option("--lm-weight <x>", "finetune: weight of the masked-pronoun loss", "1")
    .option("--lm-batch-size <n>", "finetune: corpus windows per step", "32")
    .option("--epochs <n>", "epochs", "3")
    .option("--batch-size <n>", "pairs per step", "32")
    .option("--lr <x>", "Adam learning rate", "1e-3")
    .option("--seed <n>", "seed", "1")
    .option("--max-train-pairs <n>", "seeded subset of training pairs (0 = all)", "0")
    .option("--max-dev-pairs <n>", "seeded subset of dev pairs (0 = all)", "0")
    .option("--max-minutes <x>", "stop training after this many minutes (0 = no limit)", "0")
    .option("--json", "print the result as JSON instead of text", false)
    .option("-o, --output <file>", "write the result here ('-' = stdout, the default)")
    .option("--backend <name>", "auto | gpu | node | wasm | cpu", "wasm")
    .option("-q, --quiet", "no progress on stderr, no signature on stdout", false)
    .action(
      action(async (o: Record<string, unknown>) => {
        const variant = String(o.variant);
        if (variant !== "frozen" && variant !== "frozen+lp" && variant !== "finetune") throw new InputError(`unknown variant '${variant}' (expected frozen, frozen+lp or finetune)`);
        await checkOutputs(o.output as string | undefined);
        const { selectBackend, describeBackend } = await import("../nn/backend.js");
        const backend = await selectBackend(String(o.backend));
        const backendLine = describeBackend(backend);
        if (!o.quiet) process.stderr.write(backendLine + "\n");
        const { trainOnTop, pct } = await import("../ontop/train.js");
        const r = await trainOnTop({
          lmDir: String(o.lm),
          train: String(o.train),
          dev: String(o.dev),
          variant,
          epochs: intOption("--epochs", String(o.epochs), 1),
          batchSize: intOption("--batch-size", String(o.batchSize), 1),
          lr: floatOption("--lr", String(o.lr)),
          seed: intOption("--seed", String(o.seed), 0),
          maxTrainPairs: intOption("--max-train-pairs", String(o.maxTrainPairs), 0),
          maxDevPairs: intOption("--max-dev-pairs", String(o.maxDevPairs), 0),
          maxMinutes: floatOption("--max-minutes", String(o.maxMinutes)),
          corpus: o.corpus as string | undefined,
          lmWeight: floatOption("--lm-weight", String(o.lmWeight)),
          lmBatchSize: intOption("--lm-batch-size", String(o.lmBatchSize), 1),
          quiet: Boolean(o.quiet),
        }, o.quiet ? () => {} : undefined);
        const { readPronounLmConfig } = await import("../pretrain/checkpoint.js");
        // The accuracies come with what produced them, like every scoring command's numbers.
        const signature = makeSignature("proneval-ontop", [
          ["lm", `pronoun-lm@${readPronounLmConfig(String(o.lm)).files.weights.sha256.slice(0, 8)}`],
          ["variant", variant],
          ["epochs", String(o.epochs)],
          ["lr", String(o.lr)],
          ["seed", String(o.seed)],
          ["train-pairs", r.trainPairs],
          ["dev", basename(String(o.dev))],
          ["backend", backend.backend],
        ]);
        const text = o.json
          ? JSON.stringify({ signature, options: o, ...r }, null, 1) + "\n"
          : [`zero-shot: ${pct(r.zeroShotDev)}`, ...r.dev.map((d, i) => `${variant} epoch ${i + 1}: ${pct(d)}`), ...(o.quiet ? [] : [`signature: ${signature}`])].join("\n") + "\n";
        await emit(text, o.output as string | undefined);
      }),
    );
}
