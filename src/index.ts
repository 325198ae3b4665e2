// Public library API of proneval. Each pipeline stage re-exports its entry points here.
export { VERSION, PACKAGE_ROOT } from "./version.js";
export { InputError } from "./io/errors.js";
export { readLines, readText, streamLines, readBytes } from "./io/lines.js";
export { writeFileAtomic, AtomicLineWriter } from "./io/atomic.js";
export * from "./io/model.js";
export * from "./io/readers.js";
export * as ctxpro from "./ctxpro/index.js";
export { splitSentences, lastSentence } from "./text/sentences.js";
export * as ranker from "./ranker/index.js";
export * from "./metric/index.js";
export * as muda from "./muda/index.js";
export * as contrastive from "./contrastive/index.js";
export * as apt from "./apt/index.js";
export { pairedBootstrapStats, type PairedBootstrapResult } from "./stats/bootstrap.js";
export { generateReport, renderReportFromInputs, readReportInput, buildReport, renderHtml, writePngs } from "./report/index.js";
export * as align from "./align/index.js";
export { trainAligner, alignBidirectional, type AlignModel, type AlignOptions, type BidirectionalResult } from "./align/index.js";
export { buildEnsemble, loadEnsembleScorer, fitEnsembleWeight, type EnsembleConfig } from "./metric/ensemble.js";
