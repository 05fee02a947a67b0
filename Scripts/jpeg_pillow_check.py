#!/usr/bin/env python3
"""Compares `tflite decode` with Pillow on JPEGs written by Pillow in many variants.

For each bundled photo, at six sizes (full, 33x17, 9x7, 1x1, 2x3, 101x67): baseline and
progressive at 4:4:4, 4:2:2 and 4:2:0, qualities 50 and 95, a progressive grayscale file and
a progressive file with restart markers. Prints files that differ and the largest absolute
difference over all files (0 means identical to libjpeg-turbo's output as Pillow returns it).

Usage: python3 Scripts/jpeg_pillow_check.py [--tflite PATH]
Build first: swift build -c release --product tflite
"""
import argparse
import os
import subprocess
import tempfile

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tflite", default=os.path.join(ROOT, ".build/release/tflite"))
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="jpeg_check_")
    cases = []
    for photo in ("chelsea", "coffee", "astronaut"):
        im = Image.open(os.path.join(ROOT, "Models/images", photo + ".png")).convert("RGB")
        for w, h in [(im.width, im.height), (33, 17), (9, 7), (1, 1), (2, 3), (101, 67)]:
            small = im.resize((w, h))
            for sub in (0, 1, 2):
                for progressive in (False, True):
                    for quality in (50, 95):
                        path = os.path.join(tmp, f"{photo}_{w}x{h}_s{sub}_p{int(progressive)}_q{quality}.jpg")
                        small.save(path, quality=quality, subsampling=sub, progressive=progressive)
                        cases.append(path)
            path = os.path.join(tmp, f"{photo}_{w}x{h}_gray_progressive.jpg")
            small.convert("L").save(path, progressive=True, quality=80)
            cases.append(path)
            path = os.path.join(tmp, f"{photo}_{w}x{h}_restart_progressive.jpg")
            small.save(path, quality=85, progressive=True, restart_marker_blocks=2)
            cases.append(path)
    worst = 0
    out = os.path.join(tmp, "out.npy")
    for path in cases:
        expected = np.asarray(Image.open(path))
        if expected.ndim == 2:
            expected = expected[:, :, None]
        result = subprocess.run([args.tflite, "decode", path, "--output", out], capture_output=True, text=True)
        if result.returncode:
            print("FAILED", os.path.basename(path), result.stderr.strip())
            worst = 255
            continue
        got = np.load(out)
        if got.shape != expected.shape:
            print("SHAPE", os.path.basename(path), got.shape, expected.shape)
            worst = 255
            continue
        diff = int(np.abs(got.astype(int) - expected).max())
        worst = max(worst, diff)
        if diff:
            print(os.path.basename(path), "max |diff|", diff)
    print(f"{len(cases)} files, largest |ours - Pillow| = {worst}")


if __name__ == "__main__":
    main()
