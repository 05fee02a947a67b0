#!/usr/bin/env python3
"""Makes Tests/Fixtures/mediapipe: MediaPipe's two face landmark models, a 192x192 face crop of
the bundled astronaut photo, and LiteRT 2.3.0's outputs of face_landmark.tflite on that crop.

face_landmark_with_attention.tflite needs MediaPipe's custom ops, which LiteRT lacks, so it has
no golden; the tests compare its landmarks with face_landmark.tflite's on the same crop, and
face_landmark.tflite's with the outputs written here.

    pip install ai-edge-litert==2.3.0 numpy pillow
    pip download mediapipe==0.10.21 --no-deps -d /tmp/mp && (cd /tmp/mp && unzip -q mediapipe-*.whl)
    python3 Scripts/make_face_landmark_fixtures.py /tmp/mp/mediapipe/modules/face_landmark

The crop follows MediaPipe's face landmark graph on a tracked face: a square region around
the previous landmarks, 1.5 times their extent (face_landmark_landmarks_to_roi.pbtxt),
resized to 192x192 (bilinear) and scaled to [0, 1] (face_landmark_cpu.pbtxt). The previous
landmarks come from one run of face_landmark.tflite on a hand-placed square around the face;
the astronaut's face is upright, so the region is not rotated. A second crop is the same
region of the photo turned by ROTATED_DEGREES about the region's centre, a tilt of the kind a
tracked region keeps between two frames: on a tilted face the custom operators' rotations
matter (Landmarks2TransformMatrix turns each region's crop to the line of its two rotation
landmarks), on an upright one they are nearly the identity.
"""
import hashlib
import json
import os
import shutil
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEST = os.path.join(ROOT, "Tests", "Fixtures", "mediapipe")
PHOTO = os.path.join(ROOT, "Models", "images", "astronaut.png")
# A square around the face in the 512x512 photo, by eye: (left, top, right, bottom).
FIRST_BOX = (139, 43, 309, 213)
ROTATED_DEGREES = 12


def crop(image, box):
    return image.crop(box).resize((192, 192), Image.BILINEAR)


def run(model, pixels, resolver):
    interpreter = Interpreter(model_path=model, experimental_op_resolver_type=resolver, num_threads=1)
    interpreter.allocate_tensors()
    x = (np.asarray(pixels, dtype=np.float32) / np.float32(255))[None]
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], x)
    interpreter.invoke()
    return [interpreter.get_tensor(o["index"]).copy() for o in interpreter.get_output_details()]


def main():
    source = sys.argv[1]
    os.makedirs(DEST, exist_ok=True)
    for name in ("face_landmark.tflite", "face_landmark_with_attention.tflite"):
        shutil.copyfile(os.path.join(source, name), os.path.join(DEST, name))
    model = os.path.join(DEST, "face_landmark.tflite")
    image = Image.open(PHOTO).convert("RGB")

    # The tracked region: landmarks of the first crop mapped back to the photo.
    mesh = run(model, crop(image, FIRST_BOX), OpResolverType.BUILTIN_REF)[0].reshape(468, 3)
    side = FIRST_BOX[2] - FIRST_BOX[0]
    xs = FIRST_BOX[0] + mesh[:, 0] * side / 192
    ys = FIRST_BOX[1] + mesh[:, 1] * side / 192
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    half = 1.5 * max(xs.max() - xs.min(), ys.max() - ys.min()) / 2
    box = tuple(int(round(v)) for v in (cx - half, cy - half, cx + half, cy + half))
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    crops = {
        "astronaut_face": crop(image, box),
        "astronaut_face_rotated": crop(image.rotate(ROTATED_DEGREES, resample=Image.BILINEAR, center=centre), box),
    }
    cases = []
    for name, face in crops.items():
        face.save(os.path.join(DEST, f"{name}_192.png"))
        reference = run(model, face, OpResolverType.BUILTIN_REF)
        default = run(model, face, OpResolverType.AUTO)
        outputs = []
        for output, golden, other in zip(["mesh", "face_flag"], reference, default):
            np.save(os.path.join(DEST, f"{name}_{output}.npy"), golden)
            outputs.append({"file": f"{name}_{output}.npy", "shape": list(golden.shape),
                            "xnnpack_vs_ref_max_abs": float(np.max(np.abs(golden - other)))})
        cases.append({"input": f"{name}_192.png", "outputs": outputs})
    info = {
        "photo": "Models/images/astronaut.png", "first_box": list(FIRST_BOX), "crop_box": list(box),
        "rotated_degrees": ROTATED_DEGREES,
        "input": "the PNG as float32 [1, 192, 192, 3], value / 255",
        "golden_model": "face_landmark.tflite", "golden_resolver": "BUILTIN_REF", "runtime": "ai-edge-litert 2.3.0",
        "cases": cases,
        "models": {n: hashlib.sha256(open(os.path.join(DEST, n), "rb").read()).hexdigest()
                   for n in ("face_landmark.tflite", "face_landmark_with_attention.tflite")},
    }
    with open(os.path.join(DEST, "face_landmark.json"), "w") as f:
        json.dump(info, f, indent=1)
        f.write("\n")
    print(json.dumps(info, indent=1))


if __name__ == "__main__":
    main()
