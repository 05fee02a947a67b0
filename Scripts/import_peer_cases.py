#!/usr/bin/env python3
"""Copies cases of the peer test suites (LiteRT's and TFLite Micro's own test models and expected
outputs, `shared/peers`) into Tests/Fixtures/peers, in the corpus manifest's format, so that
PeerConformanceTests runs them from a fresh clone.

    python3 Scripts/import_peer_cases.py --peers ../shared/peers --tflite .build/release/tflite

The cases to copy are the ids listed in Tests/Fixtures/peers/cases.txt (one per line, `#` starts
a comment). Inputs generated from a seed or stored as CSV are written as .npy; TFLite Micro's flat
CSV goldens are reshaped to the model's output shape, read with `tflite inspect --json` (as are
the operator histogram and subgraph count the corpus manifest also records). Only
cases compared value by value are taken (`ref` cases with whole outputs and `near` goldens);
where a `ref` case holds LiteRT's reference-kernel outputs beside its default ones, those are
the expected values, as in the corpus.
Needs numpy.
"""
import argparse
import json
import os
import re
import shutil
import subprocess

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEST = os.path.join(ROOT, "Tests", "Fixtures", "peers")


def generate(spec):
    """The peers' seeded generator (np.random.RandomState streams are frozen across NumPy versions)."""
    shape = tuple(spec["shape"])
    if spec["dist"] == "full":
        return np.full(shape, spec["value"], spec["dtype"])
    rs = np.random.RandomState(spec["seed"])
    if spec["dist"] == "uniform":
        return rs.uniform(spec["low"], spec["high"], size=shape).astype(spec["dtype"])
    return rs.randint(spec["low"], spec["high"], size=shape).astype(spec["dtype"])


def tolerance(dtype, atol, rtol, int_tol):
    if np.issubdtype(np.dtype(dtype), np.floating):
        return {"kind": "float", "atol": atol, "rtol": rtol}
    if int_tol == 0:
        return {"kind": "exact"}
    return {"kind": "quantized", "max_abs_diff_units": int_tol}


def import_case(case, peers, tflite):
    src = lambda p: os.path.join(peers, p)
    name = re.sub(r"[^A-Za-z0-9_.=-]+", "_", case["id"])
    folder = os.path.join(DEST, "cases", name)
    os.makedirs(folder, exist_ok=True)
    model = "models/" + os.path.basename(case["model"])
    shutil.copyfile(src(case["model"]), os.path.join(DEST, model))

    inputs = []
    for k, e in enumerate(case.get("inputs", [])):
        if "file" in e:
            a = np.load(src(e["file"]))
        elif "gen" in e:
            a = generate(e["gen"])
        else:
            a = np.loadtxt(src(e["csv"]), delimiter=",", dtype=np.int64).reshape(e["shape"]).astype(e["dtype"])
        f = "cases/%s/in%d.npy" % (name, k)
        np.save(os.path.join(DEST, f), a)
        inputs.append({"file": f, "dtype": a.dtype.name, "shape": list(a.shape), "name": "input %d" % k})

    info = json.loads(subprocess.run([tflite, "inspect", src(case["model"]), "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    outputs = []
    reference = case.get("reference", "peer test's expected output")
    if case["kind"] == "ref":
        expected = case["outputs"]
        # The corpus's goldens are LiteRT's reference kernels; where the peer case also holds
        # those (its optimised kernels round some int8 ops differently), take them.
        if case.get("alt_reference") == "litert BUILTIN_REF":
            expected, reference = case["alt_outputs"], case["alt_reference"]
        for k, e in enumerate(expected):
            f = "cases/%s/out%d.npy" % (name, k)
            shutil.copyfile(src(e["file"]), os.path.join(DEST, f))
            outputs.append({"file": f, "dtype": e["dtype"], "shape": e["shape"], "name": "output %d" % k,
                            "tolerance": tolerance(e["dtype"], case["atol"], case["rtol"], e["int_tol"])})
    else:
        out = info["subgraphs"][0]["outputs"][0]
        g = np.load(src(case["golden"])) if "golden" in case else \
            np.loadtxt(src(case["golden_csv"]), delimiter=",", dtype=np.int64)
        g = g.reshape(out["shape"]).astype(out["dtype"])
        f = "cases/%s/out0.npy" % name
        np.save(os.path.join(DEST, f), g)
        outputs.append({"file": f, "dtype": g.dtype.name, "shape": list(g.shape), "name": out["name"],
                        "tolerance": tolerance(g.dtype, case.get("atol", 0.0), 0.0, case.get("int_tol", 0))})
    return {"case": name, "model": model, "signature": case.get("signature"), "origin": case["origin"],
            "peer_case": case["id"], "reference": reference, "inputs": inputs, "outputs": outputs,
            "ops": info["ops"], "subgraphs": len(info["subgraphs"])}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peers", required=True, help="the shared/peers folder")
    ap.add_argument("--tflite", required=True, help="this project's tflite tool (reads output shapes)")
    args = ap.parse_args()
    wanted = [l.split("#")[0].strip() for l in open(os.path.join(DEST, "cases.txt"))]
    wanted = [w for w in wanted if w]
    cases = {c["id"]: c for c in json.load(open(os.path.join(args.peers, "cases", "cases.json")))["cases"]}
    for sub in ("models", "cases"):
        shutil.rmtree(os.path.join(DEST, sub), ignore_errors=True)
        os.makedirs(os.path.join(DEST, sub))
    manifest = []
    for w in wanted:
        c = cases[w]
        usable = c["kind"] == "ref" and all("file" in e for e in c["outputs"]) or c.get("check") == "near"
        if not usable:
            raise SystemExit("%s: only ref cases with whole outputs and near goldens can be imported" % w)
        manifest.append(import_case(c, args.peers, args.tflite))
    with open(os.path.join(DEST, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print("imported %d peer cases into %s" % (len(manifest), DEST))


if __name__ == "__main__":
    main()
