"""Builds the small decoder-only transformer of Tests/Fixtures/transformers with litert-torch's
generative API (the TinyLlama architecture: RMS norm, rotary embeddings, grouped-query
attention, gated SiLU feed-forward, an external KV cache), with seeded random weights, and
converts it three ways: float32, dynamic int8 and dynamic int4 with blocks of 32.

litert-torch pins its own LiteRT and TensorFlow, so it lives in a virtual environment of its own:

    python3 -m venv /opt/litert-torch
    /opt/litert-torch/bin/pip install ai-edge-torch==0.7.2 tensorflow
    /opt/litert-torch/bin/python Scripts/transformers/make_models.py

The goldens come from LiteRT 2.3.0 afterwards (make_goldens.py), outside that environment.
"""
import os
import sys

import torch
from litert_torch.generative.examples.tiny_llama import tiny_llama
from litert_torch.generative.utilities import converter, export_config

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "transformers", "models")
PREFILL, KV_CACHE = 8, 32
QUANTIZATIONS = {"f32": "none", "q8": "dynamic_int8", "q4_block32": "dynamic_int4_block32"}


def build():
    config = tiny_llama.get_model_config()
    config.vocab_size, config.num_layers, config.embedding_dim, config.max_seq_len = 256, 2, 64, 64
    attention = config.block_config(0).attn_config
    attention.num_heads, attention.head_dim, attention.num_query_groups = 4, 16, 2
    config.block_config(0).ff_config.intermediate_size = 128
    torch.manual_seed(0)
    model = tiny_llama.TinyLlama(config, mask_cache_size=KV_CACHE)
    with torch.no_grad():
        # Wide weights, so the logits of different tokens differ clearly at every step.
        for p in model.parameters():
            p.copy_(torch.randn_like(p) * 0.2)
    return model.eval()


def main():
    os.makedirs(OUT, exist_ok=True)
    only = sys.argv[1:] or list(QUANTIZATIONS)
    for name in only:
        options = export_config.ExportConfig()
        options.output_logits_on_prefill = True
        path = converter.convert_to_tflite(build(), output_path=OUT, output_name_prefix="tiny_decoder",
                                           prefill_seq_len=PREFILL, kv_cache_max_len=KV_CACHE,
                                           quantize=QUANTIZATIONS[name], export_config=options)
        final = os.path.join(OUT, f"tiny_decoder_{name}.tflite")
        os.replace(path, final)
        print(final, os.path.getsize(final))


if __name__ == "__main__":
    main()
