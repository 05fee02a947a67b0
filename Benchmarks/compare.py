#!/usr/bin/env python3
"""Benchmarks `tflite bench` against LiteRT (XNNPACK and builtin kernels) and,
when installed, OpenVINO, on the same models in one interleaved run.

Every measurement is a fresh process run under /usr/bin/time, which gives its
peak resident memory. Within each repetition the engines take turns on every
model and thread count, so load from other processes on the machine spreads
over all engines alike; the table reports, per cell, the median over the
repetitions of each process's median latency. A second table pairs our process
with XNNPACK's of the same repetition, which ran seconds apart, and gives the
median of those ratios: on a shared machine a slow stretch can move one engine's
median and not the other's, and mostly cancels out of a pair. A summary gives the
median, geometric mean and largest ratio over the models.

Usage (from the package root; see Benchmarks/README.md for the builds):

    python3 Benchmarks/compare.py \
        --ours default=.build/release/tflite \
        --ours forced-avx2=/tmp/tflite-avx2 \
        --reps 3 --runs 20 --threads 1 2 --out Benchmarks/results.md
"""

import argparse
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "Tests", "Fixtures", "corpus", "models")

# Every real model of the corpus (the op-zoo models test single operators).
DEFAULT_MODELS = [
    "efficientnet_lite0", "face_detection_short_range", "face_detection_full_range_sparse",
    "hand_landmark_lite", "palm_detection_lite", "selfie_segmentation",
    "mobilenet_v1_float", "mobilenet_v2_float", "mobilenet_v2_fp16", "mobilenet_v2_dynamic",
    "mobilenet_v2_int8", "mobilenet_v2_uint8io",
    "ssd_detector_float", "ssd_detector_int8", "sine_float",
]


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            lines = f.read().splitlines()
    except OSError:
        return platform.processor() or "unknown"
    name = next((l.split(":", 1)[1].strip() for l in lines if l.startswith("model name")), "unknown")
    flags = next((l.split(":", 1)[1].split() for l in lines if l.startswith("flags")), [])
    isa = [f for f in ("avx512f", "avx2", "fma") if f in flags]
    cores = sum(1 for l in lines if l.startswith("processor"))
    return f"{name} ({cores} logical cores; {', '.join(isa) or 'no AVX'})"


def load_average():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_measured(command, timeout):
    """Runs `command` under /usr/bin/time; returns (median_ms or None, peak RSS in MiB, error)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as rss_file:
        full = ["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + command
        try:
            done = subprocess.run(full, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, None, "timeout"
        rss_text = rss_file.read().strip().splitlines()
    rss = None
    if rss_text and rss_text[-1].isdigit():
        rss = int(rss_text[-1]) / 1024
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines or not lines[-1].startswith("median_ms:"):
        error = (done.stderr.strip().splitlines() or ["exit status %d" % done.returncode])[-1]
        return None, rss, error
    return float(lines[-1].split(":", 1)[1]), rss, None


def engine_commands(args):
    """The engines in the order they take turns: (label, builder of a command from model,
    threads, timed runs, warm-up runs)."""
    engines = []
    for spec in args.ours:
        label, _, binary = spec.partition("=")
        engines.append((f"ours {label}", lambda m, t, r, w, b=binary: [
            b, "bench", m, "--runs", str(r), "--warmup", str(w), "--threads", str(t)]))
    worker = os.path.join(HERE, "engine_bench.py")
    others = ["xnnpack", "builtin"]
    if args.openvino:
        others.append("openvino")
    for engine in others:
        engines.append((engine, lambda m, t, r, w, e=engine: [
            sys.executable, worker, e, m, "--runs", str(r), "--warmup", str(w), "--threads", str(t)]))
    return engines


def runs_for(latency_ms, args):
    """Timed runs for a process whose engine took `latency_ms` per run last time: `--runs`,
    more when they would take less than `--min-time` seconds (a model of 0.1 ms timed over
    20 runs is timed over 2 ms, at the mercy of one descheduling), fewer when they would take
    more than `--budget` seconds (at least 3)."""
    if latency_ms is None or latency_ms <= 0:
        return args.runs
    runs = max(args.runs, int(args.min_time * 1000 / latency_ms))
    return max(3, min(runs, 100_000, int(args.budget * 1000 / latency_ms)))


def fmt(value, digits=2):
    """Two decimals, or three significant digits for values below 0.1 (a model that runs in
    microseconds)."""
    if value is None:
        return "n/a"
    return f"{value:.{digits}f}" if abs(value) >= 0.1 or value == 0 else f"{value:.3g}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ours", action="append", required=True, metavar="LABEL=PATH",
                        help="a `tflite` binary to measure (repeatable), e.g. release=.build/release/tflite")
    parser.add_argument("--models", nargs="*", default=DEFAULT_MODELS,
                        help="model names in the corpus, or paths to .tflite files")
    parser.add_argument("--threads", nargs="*", type=int, default=[1, 2])
    parser.add_argument("--reps", type=int, default=3, help="interleaved repetitions (processes per cell)")
    parser.add_argument("--runs", type=int, default=20, help="timed invocations per process")
    parser.add_argument("--warmup", type=int, default=3, help="untimed invocations per process")
    parser.add_argument("--budget", type=float, default=10,
                        help="seconds of timed runs per process; slow engines get fewer runs (at least 3)")
    parser.add_argument("--min-time", type=float, default=0.25,
                        help="seconds of timed runs per process at least; fast models get more runs")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--no-openvino", dest="openvino", action="store_false",
                        help="skip the OpenVINO column even when it is installed")
    parser.add_argument("--out", help="also write the markdown report here")
    args = parser.parse_args()

    if not shutil.which("/usr/bin/time"):
        sys.exit("error: /usr/bin/time is needed for peak memory (apt-get install time)")
    openvino_note = ""
    if args.openvino:
        try:
            import openvino  # noqa: F401
        except ImportError:
            args.openvino = False
            openvino_note = "OpenVINO: not installed (`pip install openvino`), column omitted."

    models = [(m, m if m.endswith(".tflite") else os.path.join(CORPUS, m + ".tflite")) for m in args.models]
    engines = engine_commands(args)
    samples = {}  # (model, threads, engine) -> list of (median_ms, rss_mib)
    by_rep = {}  # (model, threads, engine) -> {repetition: median_ms}
    errors = {}
    latency = {}  # (model, threads, engine) -> ms per run of the probe, to size --runs
    load_before = load_average()
    started = time.time()
    for rep in range(args.reps):
        for name, path in models:
            for threads in args.threads:
                for label, build in engines:
                    key = (name, threads, label)
                    if key in errors:
                        continue
                    if key not in latency:
                        # One untimed probe run sizes the later processes of this cell.
                        probe, _, error = run_measured(build(path, threads, 1, 0), args.timeout)
                        latency[key] = probe
                    runs = runs_for(latency[key], args)
                    warmup = min(args.warmup, runs)
                    median, rss, error = run_measured(build(path, threads, runs, warmup), args.timeout)
                    if error:
                        errors[key] = error
                        print(f"[{rep + 1}/{args.reps}] {name} t{threads} {label}: {error}", file=sys.stderr)
                    else:
                        samples.setdefault(key, []).append((median, rss))
                        by_rep.setdefault(key, {})[rep] = median
                        print(f"[{rep + 1}/{args.reps}] {name} t{threads} {label}: {median:.4f} ms, "
                              f"{fmt(rss, 1)} MiB", file=sys.stderr)
    load_after = load_average()

    def median_ms(name, threads, label):
        values = [s[0] for s in samples.get((name, threads, label), [])]
        return statistics.median(values) if values else None

    def paired_ratio(name, threads, label, base):
        """The median over repetitions of `label`'s time over `base`'s in the same repetition:
        the two processes ran seconds apart, so a stretch in which the machine was slower
        (another tenant on the second vCPU) mostly cancels out, where it can move one engine's
        median and not the other's."""
        a, b = by_rep.get((name, threads, label), {}), by_rep.get((name, threads, base), {})
        ratios = [a[r] / b[r] for r in a if r in b and b[r] > 0]
        return statistics.median(ratios) if ratios else None

    def summary(values):
        values = [v for v in values if v is not None]
        if not values:
            return "n/a"
        geomean = math.exp(sum(math.log(v) for v in values) / len(values))
        return (f"median {fmt(statistics.median(values))}x, geometric mean {fmt(geomean)}x, "
                f"largest {fmt(max(values))}x over {len(values)} model{'s' if len(values) != 1 else ''}")

    def peak_rss(name, threads, label):
        values = [s[1] for s in samples.get((name, threads, label), []) if s[1] is not None]
        return max(values) if values else None

    labels = [label for label, _ in engines]
    ours = [label for label in labels if label.startswith("ours")]
    out = []
    out.append("# tflite bench vs LiteRT 2.3.0" + (" and OpenVINO" if args.openvino else ""))
    out.append("")
    out.append(f"- CPU: {cpu_name()}")
    out.append(f"- load average (1/5/15 min): before {load_before}, after {load_after}")
    out.append(f"- {args.reps} interleaved repetitions x {args.runs} timed runs ({args.warmup} warm-up) per process "
               f"(more for fast models: at least {args.min_time:g} s of timed runs; fewer for slow engines: at most "
               f"{args.budget:g} s, at least 3 runs); cell = median over repetitions of each process's median; "
               f"{time.time() - started:.0f} s in all")
    out.append(f"- ours: " + ", ".join(args.ours))
    if openvino_note:
        out.append(f"- {openvino_note}")
    out.append("")
    for threads in args.threads:
        out.append(f"## {threads} thread{'s' if threads > 1 else ''}: median ms")
        out.append("")
        header = ["model"] + labels
        header += [f"{o} / xnnpack" for o in ours] + [f"{o} / builtin" for o in ours]
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "---|" + "---:|" * (len(header) - 1))
        for name, _ in models:
            row = [name]
            for label in labels:
                value = median_ms(name, threads, label)
                row.append(fmt(value) if value is not None else "fails" if (name, threads, label) in errors else "n/a")
            for base in ("xnnpack", "builtin"):
                for o in ours:
                    r = ratio(median_ms(name, threads, o), median_ms(name, threads, base))
                    row.append(fmt(r) + "x" if r is not None else "n/a")
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    out.append("## Ours / XNNPACK, paired by repetition")
    out.append("")
    out.append("Per cell, the median over repetitions of ours / XNNPACK within one repetition (the two "
               "processes ran back to back), beside the ratio of the two medians above.")
    out.append("")
    header = ["model"] + [f"{o} / xnnpack, {t} thread{'s' if t > 1 else ''}" for t in args.threads for o in ours]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "---|" + "---:|" * (len(header) - 1))
    for name, _ in models:
        row = [name]
        for threads in args.threads:
            for o in ours:
                r = paired_ratio(name, threads, o, "xnnpack")
                row.append(fmt(r) + "x" if r is not None else "n/a")
        out.append("| " + " | ".join(row) + " |")
    out.append("")
    for threads in args.threads:
        for o in ours:
            cells = [ratio(median_ms(n, threads, o), median_ms(n, threads, "xnnpack")) for n, _ in models]
            paired = [paired_ratio(n, threads, o, "xnnpack") for n, _ in models]
            out.append(f"- {o}, {threads} thread{'s' if threads > 1 else ''}, / xnnpack: ratio of medians "
                       f"{summary(cells)}; paired {summary(paired)}")
            if args.openvino:
                cells = [ratio(median_ms(n, threads, o), median_ms(n, threads, "openvino")) for n, _ in models]
                out.append(f"- {o}, {threads} thread{'s' if threads > 1 else ''}, / openvino: ratio of medians "
                           f"{summary(cells)}")
    out.append("")
    if len(args.threads) > 1:
        lo, hi = min(args.threads), max(args.threads)
        out.append(f"## Speed-up from {lo} to {hi} threads (median at {lo} / median at {hi})")
        out.append("")
        out.append("| model | " + " | ".join(labels) + " |")
        out.append("|---|" + "---:|" * len(labels))
        for name, _ in models:
            row = [name]
            for label in labels:
                r = ratio(median_ms(name, lo, label), median_ms(name, hi, label))
                row.append(fmt(r) + "x" if r is not None else "n/a")
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    out.append(f"## Peak resident memory, MiB (largest over repetitions, {min(args.threads)} thread)")
    out.append("")
    out.append("Whole process: the Python engines include the interpreter and NumPy.")
    out.append("")
    out.append("| model | " + " | ".join(labels) + " |")
    out.append("|---|" + "---:|" * len(labels))
    for name, _ in models:
        out.append("| " + " | ".join([name] + [fmt(peak_rss(name, min(args.threads), l), 1) for l in labels]) + " |")
    out.append("")
    if errors:
        out.append("## Failures")
        out.append("")
        for (name, threads, label), error in sorted(errors.items()):
            out.append(f"- {name}, {threads} thread(s), {label}: {error}")
        out.append("")
    report = "\n".join(out)
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report + "\n")


if __name__ == "__main__":
    main()
