#!/usr/bin/env python3
"""Decode speed of the pure-Swift decoders against Pillow on the same files.

For each file: the median time of N decodes from memory (our `tflite decode --bench N`,
Pillow's `Image.open(BytesIO(data)).load()`), and the throughput in MB/s of decoded
pixels (width * height * channels * bytes per sample). Times are thread CPU time, which a
machine shared with other jobs disturbs far less than wall time; both sides measure the
same way.

Files: the bundled photos (Models/images/*.png), the corpus JPEGs, and JPEG re-encodings
of the photos made here with Pillow (baseline 4:2:0 quality 90, progressive 4:2:0 quality
90, baseline 4:4:4 quality 95), written to a temporary folder.

Usage: python3 Benchmarks/decode_bench.py [--runs N] [--tflite PATH]
Build first: swift build -c release --product tflite
"""
import argparse
import io
import os
import re
import statistics
import subprocess
import tempfile
import time

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pillow_median_ms(data, runs):
    times = []
    for _ in range(runs):
        start = time.thread_time_ns()
        im = Image.open(io.BytesIO(data))
        im.load()
        times.append((time.thread_time_ns() - start) / 1e6)
    return statistics.median(times)


def ours_median_ms(tflite, path, runs):
    out = subprocess.run([tflite, "decode", path, "--bench", str(runs)], check=True,
                         capture_output=True, text=True).stdout
    match = re.search(r"(\d+)x(\d+)x(\d+) \w+ decode median ([0-9.]+) ms cpu", out)
    w, h, c, ms = int(match[1]), int(match[2]), int(match[3]), float(match[4])
    return ms, w, h, c


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--tflite", default=os.path.join(ROOT, ".build/release/tflite"))
    args = parser.parse_args()

    files = [os.path.join(ROOT, "Models/images", f) for f in ("chelsea.png", "coffee.png", "astronaut.png")]
    corpus = os.path.join(ROOT, "Tests/Fixtures/corpus/images")
    files += [os.path.join(corpus, f) for f in sorted(os.listdir(corpus))
              if f.endswith(".jpg") and not f.startswith("broken")]
    tmp = tempfile.mkdtemp(prefix="decode_bench_")
    for name in ("chelsea", "coffee", "astronaut"):
        im = Image.open(os.path.join(ROOT, "Models/images", name + ".png")).convert("RGB")
        for tag, options in (("q90_420", dict(quality=90, subsampling=2)),
                             ("q90_420_progressive", dict(quality=90, subsampling=2, progressive=True)),
                             ("q95_444", dict(quality=95, subsampling=0))):
            path = os.path.join(tmp, f"{name}_{tag}.jpg")
            im.save(path, **options)
            files.append(path)

    print(f"{'file':40} {'pixels':>11} {'ours ms':>9} {'ours MB/s':>10} {'Pillow ms':>10} {'Pillow MB/s':>12} {'ratio':>6}")
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        ms, w, h, c = ours_median_ms(args.tflite, path, args.runs)
        pil_ms = pillow_median_ms(data, args.runs)
        im = Image.open(io.BytesIO(data))
        depth = 2 if im.mode in ("I;16", "I;16B", "I") else 1
        megabytes = w * h * c * depth / 1e6
        print(f"{os.path.basename(path):40} {f'{w}x{h}x{c}':>11} {ms:9.3f} {megabytes / ms * 1e3:10.1f} "
              f"{pil_ms:10.3f} {megabytes / pil_ms * 1e3:12.1f} {ms / pil_ms:6.2f}")


if __name__ == "__main__":
    main()
