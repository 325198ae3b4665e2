"""Reads score files written by `proneval score --format mtme` with mt-metrics-eval's own loader.

  python3 scripts/mtme-read.py MTME_CHECKOUT DATA_ROOT TESTSET LP REF SCORES_DIR

MTME_CHECKOUT: a clone of github.com/google-research/mt-metrics-eval (its mt_metrics_eval/ is imported
unchanged). DATA_ROOT/TESTSET: a test set in MTME's layout (documents/LP.docs, sources/LP.txt,
references/LP.REF.txt, system-outputs/LP/SYSTEM.txt). EvalSet.AddMetricsFromDir(repair=False) then
checks the file names (NAME-REF.LEVEL.score), every system of the test set but the reference, the
number of scores per system and level, and that none is missing; the scores read back are printed.
The loader's module imports apache_beam and dacite without using them to read score files: where they
are not installed, empty stand-ins are registered.
"""
import importlib.util
import os
import sys
import types

checkout, root, testset, lp, ref, scores_dir = sys.argv[1:7]
for mod in ("apache_beam", "dacite"):
    if importlib.util.find_spec(mod) is None:
        sys.modules[mod] = types.ModuleType(mod)
sys.path.insert(0, checkout)
from mt_metrics_eval import data, meta_info  # noqa: E402

evs = data.EvalSet(testset, lp, info=meta_info.MetaInfo(ref, {}, set(), set()), path=root, strict=True)
evs.AddMetricsFromDir(scores_dir, repair=False)
for name in sorted(evs.metric_names):
    for level in sorted(evs.levels):
        scores = evs.Scores(level, name)
        if scores is None:
            continue
        for system in sorted(scores):
            v = scores[system]
            print(f"{name}\t{level}\t{system}\t{len(v)}\t{v[0]!r}")
# `mtme -t TESTSET -l LP < FILE` reads one file with data.ReadScoreFile and takes its granularity from the
# number of scores per system.
for f in sorted(os.listdir(scores_dir)):
    n = len(next(iter(data.ReadScoreFile(os.path.join(scores_dir, f)).values())))
    level = "sys" if n == 1 else "doc" if n == len(evs.docs) else "seg" if n == len(evs.src) else "unknown"
    print(f"{f}\tgranularity {level}")
