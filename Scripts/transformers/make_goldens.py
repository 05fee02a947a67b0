"""Runs the transformer models of Tests/Fixtures/transformers through LiteRT 2.3.0 (the
`ai-edge-litert==2.3.0` wheel) token by token and writes every step's inputs and outputs
with a manifest: a prefill of an 8-token prompt, then greedy decoding, each step fed the KV
cache LiteRT itself produced the step before.

The resolver is LiteRT's reference kernels (BUILTIN_REF, the corpus's semantic spec) except for
the int4 model: LiteRT 2.3's reference FULLY_CONNECTED leaves blockwise int4 outputs at zero, so
its goldens come from the builtin optimised kernels without the XNNPACK delegate
(BUILTIN_WITHOUT_DEFAULT_DELEGATES), whose blockwise path is the only one LiteRT has for these
nodes.
"""
import json
import os

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "transformers")
PROMPT = [1, 17, 42, 99, 7, 200, 3, 64]
DECODE_STEPS = 6
MODELS = [
    ("tiny_decoder_f32", "BUILTIN_REF", {"atol": 1e-5, "rtol": 1e-5}),
    # Dynamic-range models quantise each activation row on the fly: a last-bit difference in a
    # float input can move one int8 step, so they get the corpus's hybrid tolerance.
    ("tiny_decoder_q8", "BUILTIN_REF", {"atol": 1e-3, "rtol": 1e-3}),
    ("tiny_decoder_q4_block32", "BUILTIN_WITHOUT_DEFAULT_DELEGATES", {"atol": 1e-3, "rtol": 1e-3}),
]


def run(name, resolver, tolerance):
    interpreter = Interpreter(model_path=os.path.join(ROOT, "models", name + ".tflite"),
                              experimental_op_resolver_type=getattr(OpResolverType, resolver), num_threads=1)
    prefill = interpreter.get_signature_runner("prefill_8")
    decode = interpreter.get_signature_runner("decode")
    cache = {n: np.zeros(d["shape"], np.float32) for n, d in prefill.get_input_details().items() if n.startswith("kv_cache")}
    steps = []
    token, position = None, None
    for s in range(1 + DECODE_STEPS):
        if s == 0:
            key, runner = "prefill_8", prefill
            inputs = dict(tokens=np.array([PROMPT], np.int32), input_pos=np.arange(len(PROMPT), dtype=np.int32), **cache)
        else:
            key, runner = "decode", decode
            inputs = dict(tokens=np.array([[token]], np.int32), input_pos=np.array([position], np.int32), **cache)
        outputs = runner(**inputs)
        folder = os.path.join(ROOT, "cases", name, f"step{s}")
        os.makedirs(folder, exist_ok=True)
        files = {}
        for tag, values in (("in", inputs), ("out", outputs)):
            files[tag] = {}
            for n, v in values.items():
                path = os.path.join(folder, f"{tag}_{n}.npy")
                np.save(path, v)
                files[tag][n] = os.path.relpath(path, ROOT)
        token = int(np.argmax(outputs["logits"].reshape(-1, outputs["logits"].shape[-1])[-1]))
        position = len(PROMPT) - 1 + s + 1
        cache = {n: outputs[n] for n in cache}
        steps.append({"signature": key, "inputs": files["in"], "outputs": files["out"], "next_token": token})
    return {"model": f"models/{name}.tflite", "golden_resolver": resolver, "tolerance": tolerance, "prompt": PROMPT,
            "steps": steps}


def main():
    manifest = {"litert": "2.3.0", "models": [run(*m) for m in MODELS]}
    with open(os.path.join(ROOT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    for m in manifest["models"]:
        print(m["model"], [s["next_token"] for s in m["steps"]])


if __name__ == "__main__":
    main()
