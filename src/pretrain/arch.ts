// The encoder a masked-pronoun model is built on, in a module without tfjs so that the CLI can
// check options (and a resume can compare shapes) before loading it.
import { InputError } from "../io/errors.js";

/** A (stacked) BiLSTM over frozen GloVe vectors; one layer of 128 units is the shipped models' shape. */
export interface BiLstmArch {
  kind: "glove-bilstm";
  hidden: number;
  layers: number;
}

/** A pre-LN Transformer encoder over the same frozen GloVe vectors (src/nn/transformer.ts). */
export interface TransformerArch {
  kind: "glove-transformer";
  layers: number;
  width: number;
  heads: number;
  ffn: number;
  positions: "learned" | "sinusoidal";
  maxPositions: number;
}

export type LmArch = BiLstmArch | TransformerArch;

export const ENCODER_KINDS = ["bilstm", "transformer"] as const;

/** One line naming a shape, e.g. "BiLSTM 1 x 128" or "Transformer 4 x 256 (4 heads, FFN 1024, learned positions)". */
export function describeArch(a: LmArch): string {
  if (a.kind === "glove-bilstm") return `BiLSTM ${a.layers} x ${a.hidden}`;
  return `Transformer ${a.layers} x ${a.width} (${a.heads} heads, FFN ${a.ffn}, ${a.positions} positions up to ${a.maxPositions})`;
}

/** Whether two shapes are the same model shape (same parameters). */
export function sameArch(a: LmArch, b: LmArch): boolean {
  return describeArch(a) === describeArch(b);
}

/**
 * The shape asked for on the command line: `--encoder bilstm [--hidden H] [--layers L]` or
 * `--encoder transformer [--layers L] [--width W] [--heads N] [--ffn F] [--positions learned|sinusoidal]`.
 */
export function archFromOptions(o: { encoder?: string; hidden?: number; layers?: number; width?: number; heads?: number; ffn?: number; positions?: string; maxLen: number }): LmArch {
  const kind = o.encoder ?? "bilstm";
  if (kind === "bilstm") return { kind: "glove-bilstm", hidden: o.hidden ?? 128, layers: o.layers ?? 1 };
  if (kind !== "transformer") throw new InputError(`--encoder must be ${ENCODER_KINDS.join(" or ")}, got '${kind}'`);
  const width = o.width ?? 256;
  const heads = o.heads ?? Math.max(1, Math.round(width / 64));
  if (width % heads !== 0) throw new InputError(`--width ${width} must be a multiple of --heads ${heads}`);
  const positions = o.positions ?? "learned";
  if (positions !== "learned" && positions !== "sinusoidal") throw new InputError(`--positions must be learned or sinusoidal, got '${positions}'`);
  return { kind: "glove-transformer", layers: o.layers ?? 4, width, heads, ffn: o.ffn ?? 4 * width, positions, maxPositions: o.maxLen };
}

/** The default shape: what every model saved before other encoders existed has. */
export function isDefaultBiLstm(a: LmArch): a is BiLstmArch {
  return a.kind === "glove-bilstm" && a.layers === 1;
}
