#!/usr/bin/env python3
"""Builds the TFLite_Detection_PostProcess fixtures in this folder with LiteRT.

Requires `pip install ai-edge-litert==2.3.0 numpy flatbuffers`. Run from the
repository root:  python3 Tests/Fixtures/tasks/make_postprocess_fixtures.py

1. models/ssd_detector_{float,int8}_regular_nms.tflite: the corpus detectors with
   the op's FlexBuffer option `use_regular_nms` changed from 0 to 1 in place
   (same bytes otherwise).
2. postprocess/<model>__<input>/: for each corpus detector case, the op's three
   inputs as LiteRT computed them (boxes.npy, scores.npy, anchors.npy), read with
   experimental_preserve_all_tensors=True from the BUILTIN_REF interpreter, and
   the op's outputs in the op's own order (out_boxes, out_classes, out_scores,
   out_count). The *_regular cases feed the same inputs to the patched model and
   store its op outputs.
"""
import os
import struct

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from flatbuffers import flexbuffers

ROOT = "Tests/Fixtures"
CORPUS = os.path.join(ROOT, "corpus")
HERE = os.path.join(ROOT, "tasks")


def custom_options_range(data, key=b"use_regular_nms"):
    """The [ubyte] vector holding the op's FlexBuffer options (found by its key)."""
    k = data.find(key)
    for s in range(k - 1024, k):
        if s % 4:
            continue
        n = struct.unpack_from("<I", data, s - 4)[0]
        if s + n <= k or n > 4096:
            continue
        try:
            m = flexbuffers.Loads(bytes(data[s:s + n]))
        except Exception:
            continue
        if isinstance(m, dict) and "use_regular_nms" in m:
            return s, n
    raise SystemExit("custom options not found")


def patched_regular_nms(src, dst):
    data = bytearray(open(src, "rb").read())
    s, n = custom_options_range(data)
    options = bytearray(data[s:s + n])
    if not flexbuffers.GetRoot(options).AsMap["use_regular_nms"].MutateInt(1):
        raise SystemExit("could not patch use_regular_nms")
    data[s:s + n] = options
    assert flexbuffers.Loads(bytes(data[s:s + n]))["use_regular_nms"] == 1
    open(dst, "wb").write(bytes(data))


def op_tensors(model_path, inputs):
    it = Interpreter(model_path=model_path, experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                     experimental_preserve_all_tensors=True, num_threads=1)
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], x)
    it.invoke()
    op = next(o for o in it._get_ops_details() if o["op_name"] == "TFLite_Detection_PostProcess")
    ins = [it.get_tensor(i) for i in op["inputs"]]
    outs = [it.get_tensor(i) for i in op["outputs"]]
    return ins, outs


def save(folder, ins, outs):
    os.makedirs(folder, exist_ok=True)
    for name, a in zip(["boxes", "scores", "anchors"], ins):
        np.save(os.path.join(folder, name + ".npy"), a)
    for name, a in zip(["out_boxes", "out_classes", "out_scores", "out_count"], outs):
        np.save(os.path.join(folder, name + ".npy"), a)


def main():
    os.makedirs(os.path.join(HERE, "models"), exist_ok=True)
    for variant in ["float", "int8"]:
        model = os.path.join(CORPUS, "models", f"ssd_detector_{variant}.tflite")
        regular = os.path.join(HERE, "models", f"ssd_detector_{variant}_regular_nms.tflite")
        patched_regular_nms(model, regular)
        for image in ["astronaut", "random"]:
            x = np.load(os.path.join(CORPUS, "cases", f"ssd_detector_{variant}__{image}", "in0.npy"))
            ins, outs = op_tensors(model, [x])
            save(os.path.join(HERE, "postprocess", f"ssd_detector_{variant}__{image}"), ins, outs)
            rins, routs = op_tensors(regular, [x])
            for a, b in zip(ins, rins):
                assert np.array_equal(a, b)
            save(os.path.join(HERE, "postprocess", f"ssd_detector_{variant}__{image}_regular"), rins, routs)
            print(variant, image, "fast:", int(outs[3][0]), "regular:", int(routs[3][0]))


if __name__ == "__main__":
    main()
