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

# JPEG variants the corpus lacks, decoded by Pillow (libjpeg-turbo, ISLOW, fancy upsampling).
photo = Image.open(CORPUS + "png_rgb8.png").convert("RGB")
JPEGS = {
    "jpeg_progressive_444_33x17": (photo.resize((33, 17), Image.BILINEAR), dict(quality=85, subsampling=0, progressive=True)),
    "jpeg_progressive_422_restart_31x19": (photo.resize((31, 19), Image.BILINEAR), dict(quality=80, subsampling=1, progressive=True, restart_marker_blocks=2)),
    "jpeg_progressive_gray_21x13": (photo.convert("L").resize((21, 13), Image.BILINEAR), dict(quality=90, progressive=True)),
    "jpeg_420_1x1": (photo.resize((1, 1), Image.BILINEAR), dict(quality=90, subsampling=2)),
    "jpeg_420_3x2": (photo.resize((3, 2), Image.BILINEAR), dict(quality=90, subsampling=2)),
    "jpeg_420_q20_17x9": (photo.resize((17, 9), Image.BILINEAR), dict(quality=20, subsampling=2)),
}
for name, (image, options) in JPEGS.items():
    image.save(name + ".jpg", **options)
    pixels = np.asarray(Image.open(name + ".jpg"))
    np.save(name + ".npy", pixels if pixels.ndim == 3 else pixels[:, :, None])
