"""Writes the Pillow reference arrays used by Tests/ImagingTests (see README.md).

Run from this folder with Pillow 13.0.0 and NumPy installed:  python3 make_fixtures.py
"""
import numpy as np
from PIL import Image

CORPUS = "../corpus/images/"
rgb = Image.open(CORPUS + "png_rgb8.png").convert("RGB")     # 77x51
gray = Image.open(CORPUS + "pgm_p5_8bit.pgm").convert("L")   # 77x51

SIZES = [(32, 21), (160, 100), (77, 20), (13, 51), (5, 3), (1, 1), (200, 7), (150, 30), (40, 300)]
for w, h in SIZES:
    np.save(f"pillow_bilinear_rgb_{w}x{h}.npy", np.asarray(rgb.resize((w, h), Image.BILINEAR)))
    np.save(f"pillow_nearest_rgb_{w}x{h}.npy", np.asarray(rgb.resize((w, h), Image.NEAREST)))
for w, h in [(40, 60), (9, 9)]:
    np.save(f"pillow_bilinear_gray_{w}x{h}.npy", np.asarray(gray.resize((w, h), Image.BILINEAR))[:, :, None])
np.save("pillow_convert_L.npy", np.asarray(rgb.convert("L"))[:, :, None])
