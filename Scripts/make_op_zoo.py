#!/usr/bin/env python3
"""Generates the op-zoo conformance cases in Tests/Fixtures/opzoo: one small model per op and
type for the operators the corpus does not cover, with inputs from fixed seeds and goldens
computed by LiteRT 2.3.0's reference kernels (`OpResolverType.BUILTIN_REF`, one thread).

    pip install ai-edge-litert==2.3.0 numpy flatbuffers
    python3 Scripts/make_op_zoo.py [--only REGEX]

Each family of ops is a module in Scripts/opzoo (its `cases()` lists the cases; see zoo.py).
The manifest has the corpus's format (Tests/Fixtures/corpus/README.md) and is rewritten
from every family on each run, so the output is the same whichever family changed; with
--only, the other families' entries are kept as they are.
"""
import argparse
import glob
import hashlib
import importlib
import json
import os
import re
import shutil
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEST = os.path.join(ROOT, "Tests", "Fixtures", "opzoo")
sys.path.insert(0, os.path.join(ROOT, "Scripts", "opzoo"))
import zoo  # noqa: E402

S = zoo.S
OP_NAMES = {v: k for k, v in vars(S.BuiltinOperator).items() if not k.startswith("_")}


def default_tolerance(golden):
    if golden.dtype.kind == "S":
        return {"kind": "exact"}
    if np.issubdtype(golden.dtype, np.floating):
        rtol = 1e-5
        peak = float(np.max(np.abs(golden[np.isfinite(golden)]))) if np.isfinite(golden).any() else 1.0
        return {"kind": "float", "atol": rtol * max(1.0, peak), "rtol": rtol}
    return {"kind": "exact"}


def histogram(m):
    ops = {}
    for sg in m.subgraphs:
        for op in sg.operators:
            c = m.operatorCodes[op.opcodeIndex]
            name = c.customCode.decode() if isinstance(c.customCode, bytes) else c.customCode
            name = name or OP_NAMES[max(c.builtinCode, c.deprecatedBuiltinCode)]
            ops[name] = ops.get(name, 0) + 1
    return ops


def write_case(family, case):
    model_bytes = case.model.bytes()
    model_path = "models/%s.tflite" % case.name
    with open(os.path.join(DEST, model_path), "wb") as f:
        f.write(model_bytes)
    folder = os.path.join(DEST, "cases", case.name)
    os.makedirs(folder, exist_ok=True)
    golden_bytes = case.golden_model.bytes() if case.golden_model else model_bytes
    goldens = zoo.run_litert(golden_bytes, case.inputs, case.resolver, case.signature, case.genai)
    inputs, outputs = [], []
    for k, a in enumerate(case.inputs):
        f = "cases/%s/in%d.npy" % (case.name, k)
        np.save(os.path.join(DEST, f), a)
        inputs.append({"file": f, "dtype": a.dtype.name, "shape": list(a.shape), "name": "input %d" % k})
    for k, g in enumerate(goldens):
        g = zoo.as_saved(g)
        f = "cases/%s/out%d.npy" % (case.name, k)
        np.save(os.path.join(DEST, f), g)
        tol = case.tolerance[k] if isinstance(case.tolerance, list) else case.tolerance
        outputs.append({"file": f, "dtype": g.dtype.name, "shape": list(g.shape), "name": "output %d" % k,
                        "tolerance": tol or default_tolerance(g)})
    return {"case": case.name, "family": family, "model": model_path, "model_bytes": len(model_bytes),
            "model_sha256": hashlib.sha256(model_bytes).hexdigest(), "signature": case.signature,
            "inputs": inputs, "outputs": outputs, "ops": histogram(case.model.m),
            "subgraphs": len(case.model.m.subgraphs), "golden_resolver": case.resolver,
            "source": "Scripts/make_op_zoo.py (%s)" % family, "notes": case.notes}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", help="regenerate only the families whose module name matches")
    args = p.parse_args()
    families = sorted(os.path.basename(f)[:-3] for f in glob.glob(os.path.join(ROOT, "Scripts", "opzoo", "*.py"))
                      if not f.endswith("/zoo.py"))
    manifest_path = os.path.join(DEST, "manifest.json")
    kept = []
    if args.only:
        families = [f for f in families if re.search(args.only, f)]
        if os.path.exists(manifest_path):
            kept = [e for e in json.load(open(manifest_path)) if not re.search(args.only, e["family"])]
    else:
        shutil.rmtree(DEST, ignore_errors=True)
    os.makedirs(os.path.join(DEST, "models"), exist_ok=True)
    entries = list(kept)
    for family in families:
        for case in importlib.import_module(family).cases():
            folder = os.path.join(DEST, "cases", case.name)
            shutil.rmtree(folder, ignore_errors=True)
            entries.append(write_case(family, case))
            print("%-40s %s" % (case.name, ", ".join(entries[-1]["ops"])))
    entries.sort(key=lambda e: e["case"])
    with open(manifest_path, "w") as f:
        json.dump(entries, f, indent=1)
        f.write("\n")
    print("%d cases" % len(entries))


if __name__ == "__main__":
    main()
