#!/usr/bin/env python3
"""Goldens for the face detector and the selfie segmenter, computed by MediaPipe itself.

Requires `pip install mediapipe==0.10.21` (it brings numpy, OpenCV and Pillow). Run from
the repository root:  python3 Scripts/face_goldens.py

Everything is written to Tests/Fixtures/tasks/mediapipe/ (see its README.md):

* anchors.json: the SSD anchors of MediaPipe's SsdAnchorsCalculator, configured as
  MediaPipe's face_detection_short_range graph and its FaceDetector task configure it,
  and for two other configurations (the options of MediaPipe's full-range face detector on a
  small input; sized anchors of several aspect ratios on a non-square input).
* nms.json: seeded synthetic detections through MediaPipe's NonMaxSuppressionCalculator
  (algorithm WEIGHTED, overlap INTERSECTION_OVER_UNION), input and output.
* faces.json: for each test image (a bundled photo, crops of it, a side-by-side pair,
  photos without faces), every face MediaPipe's face detection finds with
  face_detection_short_range.tflite (the mp.solutions graph: ImageToTensor with
  keep_aspect_ratio, TensorsToDetections, weighted NMS, projection back to the image),
  and the FaceDetector task (mediapipe.tasks.python.vision), which runs the same graph
  and reports boxes in whole pixels, clipped to the image (`task_faces`); `faces` keeps
  the graph's relative, unclipped boxes. The script checks that the two agree. For an image already 128 pixels on its long
  side the letterbox needs no resampling; for those, the detections before NMS
  (TensorsToDetectionsCalculator's output) are stored too.
* resampling.json and warps/: MediaPipe's image-to-tensor resampling done by the OpenCV
  calls it makes (letterbox and stretch), and confidence masks resized by cv2.resize as the
  segmenter resizes them.
* segmentation.json and masks/: the confidence mask of MediaPipe's ImageSegmenter task
  with selfie_segmentation.tflite at each image's size, stored as 8-bit PNG
  (round(255 * confidence)), and its category mask (0 where the person is, 255 elsewhere).

Test images are described, not copied: a list of tiles (a repository image, optionally
cropped to [x, y, width, height] and mirrored left to right) put side by side, which the
Swift tests rebuild pixel for pixel.
"""
import hashlib
import json
import os

import mediapipe as mp
import numpy as np
from mediapipe.framework.formats import detection_pb2, location_data_pb2
from mediapipe.tasks.python import BaseOptions, vision
from PIL import Image

OUT = "Tests/Fixtures/tasks/mediapipe"
FACE_MODEL = "Models/face_detection_short_range.tflite"
SELFIE_MODEL = "Models/selfie_segmentation.tflite"
ASTRONAUT = "Models/images/astronaut.png"

# The options MediaPipe's face_detection_short_range graph and FaceDetectorGraph set.
DECODE_OPTIONS = """
  num_classes: 1 num_boxes: 896 num_coords: 16 box_coord_offset: 0 keypoint_coord_offset: 4
  num_keypoints: 6 num_values_per_keypoint: 2 sigmoid_score: true score_clipping_thresh: 100.0
  reverse_output_order: true x_scale: 128.0 y_scale: 128.0 h_scale: 128.0 w_scale: 128.0
  min_score_thresh: 0.5
"""


def tile(file, crop=None, mirrored=False):
    return {"file": file, "crop": crop, "mirrored": mirrored}


# Face images: the astronaut photo, crops of it (portrait and landscape letterboxes, and
# crops whose long side is already 128 so MediaPipe's letterbox does not resample), the
# same face twice side by side (one mirrored), and photos without a face (one a JPEG).
FACE_IMAGES = [
    ("astronaut", [tile(ASTRONAUT)]),
    ("astronaut_portrait", [tile(ASTRONAUT, [96, 0, 320, 512])]),
    ("astronaut_landscape", [tile(ASTRONAUT, [0, 0, 512, 300])]),
    ("astronaut_128", [tile(ASTRONAUT, [160, 64, 128, 128])]),
    ("astronaut_128x112", [tile(ASTRONAUT, [160, 72, 128, 112])]),
    ("astronaut_96x128", [tile(ASTRONAUT, [176, 48, 96, 128])]),
    ("astronaut_pair", [tile(ASTRONAUT, [100, 20, 256, 256]), tile(ASTRONAUT, [100, 20, 256, 256], True)]),
    ("chelsea", [tile("Models/images/chelsea.png")]),
    ("coffee", [tile("Models/images/coffee.png")]),
    ("rocket", [tile("Tests/Fixtures/corpus/images/rocket_original.jpg")]),
]
SEGMENTATION_IMAGES = [
    ("astronaut", [tile(ASTRONAUT)]),
    ("astronaut_portrait", [tile(ASTRONAUT, [96, 0, 320, 512])]),
    ("astronaut_landscape", [tile(ASTRONAUT, [0, 0, 512, 300])]),
    ("chelsea", [tile("Models/images/chelsea.png")]),
]


def build(tiles):
    parts = []
    for t in tiles:
        a = np.asarray(Image.open(t["file"]).convert("RGB"))
        if t["crop"]:
            x, y, w, h = t["crop"]
            a = a[y:y + h, x:x + w]
        if t["mirrored"]:
            a = a[:, ::-1]
        parts.append(a)
    return np.ascontiguousarray(np.hstack(parts))


def f32(v):
    """A float32 value as the exact Python float, so the JSON round-trips to the same float."""
    return float(np.float32(v))


def sha256(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def detection_json(d):
    box = d.location_data.relative_bounding_box
    return {"score": f32(d.score[0]),
            "box": [f32(box.xmin), f32(box.ymin), f32(box.width), f32(box.height)],
            "keypoints": [[f32(k.x), f32(k.y)] for k in d.location_data.relative_keypoints]}


def run_graph(config, inputs, outputs, side_outputs=()):
    graph = mp.CalculatorGraph(graph_config=config)
    got = {name: [] for name in outputs}
    for name in outputs:
        graph.observe_output_stream(name, lambda stream, p: got[stream].append(mp.packet_getter.get_proto_list(p)))
    graph.start_run()
    for name, packet in inputs:
        graph.add_packet_to_input_stream(name, packet.at(1))
    graph.close()
    sides = {name: mp.packet_getter.get_proto_list(graph.get_output_side_packet(name)) for name in side_outputs}
    return got, sides


# Anchor configurations: the short-range face detector's, and two more that exercise the
# generator's other paths (one stride, no interpolated anchor: the options of MediaPipe's
# full-range face detector on a smaller, non-square input; several aspect ratios, sized anchors, a non-square input and the predefined lowest
# layer, as in MediaPipe's SSD MobileNet object detection graph, made smaller).
ANCHOR_CONFIGS = [
    ("face_short_range", {"num_layers": 4, "min_scale": 0.1484375, "max_scale": 0.75,
                          "input_size_width": 128, "input_size_height": 128, "anchor_offset_x": 0.5,
                          "anchor_offset_y": 0.5, "strides": [8, 16, 16, 16], "aspect_ratios": [1.0],
                          "fixed_anchor_size": True, "interpolated_scale_aspect_ratio": 1.0}),
    ("one_stride", {"num_layers": 1, "min_scale": 0.1484375, "max_scale": 0.75,
                         "input_size_width": 48, "input_size_height": 40, "anchor_offset_x": 0.5,
                         "anchor_offset_y": 0.5, "strides": [4], "aspect_ratios": [1.0],
                         "fixed_anchor_size": True, "interpolated_scale_aspect_ratio": 0.0}),
    ("ssd_sized_anchors", {"num_layers": 4, "min_scale": 0.2, "max_scale": 0.95,
                           "input_size_width": 160, "input_size_height": 96, "anchor_offset_x": 0.5,
                           "anchor_offset_y": 0.5, "strides": [16, 32, 64, 128],
                           "aspect_ratios": [1.0, 2.0, 0.5], "reduce_boxes_in_lowest_layer": True,
                           "interpolated_scale_aspect_ratio": 1.0}),
]


def text_proto(options):
    parts = []
    for key, value in options.items():
        for v in value if isinstance(value, list) else [value]:
            parts.append(f"{key}: {str(v).lower() if isinstance(v, bool) else v}")
    return " ".join(parts)


def anchors(options):
    config = f"""
    output_side_packet: "anchors"
    node {{ calculator: "SsdAnchorsCalculator" output_side_packet: "anchors"
      options: {{ [mediapipe.SsdAnchorsCalculatorOptions.ext] {{ {text_proto(options)} }} }} }}
    """
    _, sides = run_graph(config, [], [], ["anchors"])
    return [[f32(a.x_center), f32(a.y_center), f32(a.w), f32(a.h)] for a in sides["anchors"]]


def make_detection(score, box, keypoints):
    d = detection_pb2.Detection()
    d.score.append(score)
    d.label_id.append(0)
    d.location_data.format = location_data_pb2.LocationData.RELATIVE_BOUNDING_BOX
    b = d.location_data.relative_bounding_box
    b.xmin, b.ymin, b.width, b.height = box
    for x, y in keypoints:
        k = d.location_data.relative_keypoints.add()
        k.x, k.y = x, y
    return d


def nms(detections, threshold):
    """MediaPipe's weighted NMS over `detections` (each a Detection proto)."""
    names = [f"d{i}" for i in range(len(detections))]
    config = "\n".join([f'input_stream: "{n}"' for n in names] + ['output_stream: "out"']) + f"""
    node {{ calculator: "MergeDetectionsToVectorCalculator"
      {" ".join(f'input_stream: "{n}"' for n in names)} output_stream: "merged" }}
    node {{ calculator: "NonMaxSuppressionCalculator" input_stream: "merged" output_stream: "out"
      options: {{ [mediapipe.NonMaxSuppressionCalculatorOptions.ext] {{
        min_suppression_threshold: {threshold} overlap_type: INTERSECTION_OVER_UNION algorithm: WEIGHTED }} }} }}
    """
    got, _ = run_graph(config, [(n, mp.packet_creator.create_proto(d)) for n, d in zip(names, detections)], ["out"])
    return got["out"][0] if got["out"] else []


def nms_cases():
    cases = []
    rng = np.random.RandomState(24)

    def random_case(name, clusters, per_cluster, threshold, jitter):
        dets = []
        scores = rng.permutation(np.linspace(0.5, 0.99, clusters * per_cluster))  # distinct: no ties
        i = 0
        for _ in range(clusters):
            cx, cy, size = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8), rng.uniform(0.08, 0.3)
            for _ in range(per_cluster):
                w = size * rng.uniform(0.8, 1.25)
                h = size * rng.uniform(0.8, 1.25)
                x = cx + rng.uniform(-jitter, jitter) * size - w / 2
                y = cy + rng.uniform(-jitter, jitter) * size - h / 2
                kps = [(x + w * rng.uniform(0.2, 0.8), y + h * rng.uniform(0.2, 0.8)) for _ in range(6)]
                dets.append((f32(scores[i]), [f32(x), f32(y), f32(w), f32(h)], [(f32(a), f32(b)) for a, b in kps]))
                i += 1
        cases.append((name, threshold, dets))

    random_case("three_clusters", 3, 6, 0.3, 0.3)
    random_case("crowded", 6, 5, 0.3, 0.6)
    random_case("crowded_threshold_0.5", 6, 5, 0.5, 0.6)
    random_case("singletons", 5, 1, 0.3, 0.0)
    # A zero-area box overlaps nothing, not even itself: when it scores highest, MediaPipe's
    # weighted NMS keeps it and stops there.
    cases.append(("zero_area_first", 0.3, [
        (0.9, [0.5, 0.5, 0.0, 0.2], [(0.5, 0.6)] * 6),
        (0.8, [0.1, 0.1, 0.2, 0.2], [(0.2, 0.2)] * 6),
        (0.7, [0.6, 0.6, 0.2, 0.2], [(0.7, 0.7)] * 6),
    ]))
    out = []
    for name, threshold, dets in cases:
        protos = [make_detection(*d) for d in dets]
        result = nms(protos, threshold)
        out.append({"name": name, "threshold": threshold,
                    "input": [detection_json(p) for p in protos],
                    "output": [detection_json(d) for d in result]})
    return out


def unfiltered_detections(image):
    """TensorsToDetectionsCalculator's output (before NMS) for `image`, as MediaPipe's graph computes it."""
    config = f"""
    input_stream: "image"
    output_stream: "unfiltered"
    node {{ calculator: "ImageToTensorCalculator" input_stream: "IMAGE:image" output_stream: "TENSORS:input"
      options: {{ [mediapipe.ImageToTensorCalculatorOptions.ext] {{ output_tensor_width: 128
        output_tensor_height: 128 keep_aspect_ratio: true output_tensor_float_range {{ min: -1.0 max: 1.0 }}
        border_mode: BORDER_ZERO }} }} }}
    node {{ calculator: "InferenceCalculator" input_stream: "TENSORS:input" output_stream: "TENSORS:raw"
      options: {{ [mediapipe.InferenceCalculatorOptions.ext] {{ model_path: "{FACE_MODEL}" delegate {{ xnnpack {{}} }} }} }} }}
    node {{ calculator: "SsdAnchorsCalculator" output_side_packet: "anchors"
      options: {{ [mediapipe.SsdAnchorsCalculatorOptions.ext] {{ {text_proto(ANCHOR_CONFIGS[0][1])} }} }} }}
    node {{ calculator: "TensorsToDetectionsCalculator" input_stream: "TENSORS:raw"
      input_side_packet: "ANCHORS:anchors" output_stream: "DETECTIONS:unfiltered"
      options: {{ [mediapipe.TensorsToDetectionsCalculatorOptions.ext] {{ {DECODE_OPTIONS} }} }} }}
    """
    packet = mp.packet_creator.create_image_frame(image_format=mp.ImageFormat.SRGB, data=image)
    got, _ = run_graph(config, [("image", packet)], ["unfiltered"])
    return [detection_json(d) for d in got["unfiltered"][0]] if got["unfiltered"] else []


def faces():
    task = vision.FaceDetector.create_from_options(vision.FaceDetectorOptions(
        base_options=BaseOptions(model_asset_path=FACE_MODEL), min_detection_confidence=0.5,
        min_suppression_threshold=0.3))
    out = []
    with mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5) as solution:
        for name, tiles in FACE_IMAGES:
            image = build(tiles)
            h, w = image.shape[:2]
            found = [detection_json(d) for d in (solution.process(image).detections or [])]
            task_faces = task.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=image)).detections
            # The task runs the same graph; it reports whole pixels and clips boxes to the image.
            assert len(task_faces) == len(found), name
            for t, f in zip(task_faces, found):
                b = t.bounding_box
                x0, y0 = max(0.0, f["box"][0] * w), max(0.0, f["box"][1] * h)
                x1 = min(float(w), (f["box"][0] + f["box"][2]) * w)
                y1 = min(float(h), (f["box"][1] + f["box"][3]) * h)
                assert abs(t.categories[0].score - f["score"]) < 1e-6, name
                assert abs(b.origin_x - x0) <= 1 and abs(b.origin_y - y0) <= 1, name
                assert abs(b.width - (x1 - x0)) <= 1 and abs(b.height - (y1 - y0)) <= 1, name
            entry = {"name": name, "tiles": tiles, "width": w, "height": h, "faces": found,
                     "task_faces": [{"score": f32(t.categories[0].score),
                                     "box": [t.bounding_box.origin_x, t.bounding_box.origin_y,
                                             t.bounding_box.width, t.bounding_box.height],
                                     "keypoints": [[f32(k.x), f32(k.y)] for k in t.keypoints]}
                                    for t in task_faces]}
            if max(w, h) == 128:
                entry["unfiltered"] = unfiltered_detections(image)
            out.append(entry)
            print(f"faces {name}: {w}x{h}, {len(found)} face(s)")
    return out


def segmentation():
    os.makedirs(os.path.join(OUT, "masks"), exist_ok=True)
    segmenter = vision.ImageSegmenter.create_from_options(vision.ImageSegmenterOptions(
        base_options=BaseOptions(model_asset_path=SELFIE_MODEL), output_confidence_masks=True,
        output_category_mask=True))
    out = []
    for name, tiles in SEGMENTATION_IMAGES:
        image = build(tiles)
        h, w = image.shape[:2]
        result = segmenter.segment(mp.Image(image_format=mp.ImageFormat.SRGB, data=image))
        confidence = result.confidence_masks[0].numpy_view()
        category = result.category_mask.numpy_view()
        assert confidence.shape == (h, w) and category.shape[:2] == (h, w), name
        conf_file, cat_file = f"masks/{name}_confidence.png", f"masks/{name}_category.png"
        Image.fromarray(np.round(np.clip(confidence, 0, 1) * 255).astype(np.uint8)).save(os.path.join(OUT, conf_file), optimize=True)
        Image.fromarray(category.reshape(h, w).astype(np.uint8)).save(os.path.join(OUT, cat_file), optimize=True)
        out.append({"name": name, "tiles": tiles, "width": w, "height": h,
                    "confidence_mask": conf_file, "category_mask": cat_file,
                    "mean_confidence": float(confidence.mean()),
                    "foreground_fraction": float((category.reshape(h, w) == 0).mean())})
        print(f"segmentation {name}: {w}x{h}, mean confidence {confidence.mean():.4f}")
    return out


# MediaPipe's ImageToTensorCalculator on the CPU, reproduced with the OpenCV it calls (the
# region of interest's corners mapped onto the output's, warpPerspective, INTER_LINEAR, zero
# border): letterboxed and stretched, downscaled and upscaled, with fractional padding.
WARPS = [
    ("astronaut_portrait_letterbox", [tile(ASTRONAUT, [96, 0, 320, 512])], 128, 128, True),
    ("astronaut_landscape_stretch", [tile(ASTRONAUT, [0, 0, 512, 300])], 160, 96, False),
    ("rgb8_letterbox", [tile("Tests/Fixtures/corpus/images/png_rgb8.png")], 128, 128, True),
    ("rgb8_stretch", [tile("Tests/Fixtures/corpus/images/png_rgb8.png")], 256, 144, False),
]


def warp(image, out_w, out_h, keep_aspect):
    import cv2
    h, w = image.shape[:2]
    roi_w, roi_h = float(w), float(h)
    if keep_aspect:  # MediaPipe's PadRoi, in float32 as it computes it
        tensor_aspect = np.float32(out_h) / np.float32(out_w)
        roi_aspect = np.float32(h) / np.float32(w)
        if tensor_aspect > roi_aspect:
            roi_w, roi_h = float(w), float(np.float32(w) * tensor_aspect)
        else:
            roi_w, roi_h = float(np.float32(h) / tensor_aspect), float(h)
    src = cv2.boxPoints(((w / 2, h / 2), (roi_w, roi_h), 0.0)).astype(np.float32)
    dst = np.array([[0, out_h], [0, 0], [out_w, 0], [out_w, out_h]], np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, matrix, (out_w, out_h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def resampling():
    import cv2
    os.makedirs(os.path.join(OUT, "warps"), exist_ok=True)
    warps = []
    for name, tiles, out_w, out_h, keep in WARPS:
        file = f"warps/{name}.png"
        Image.fromarray(warp(build(tiles), out_w, out_h, keep)).save(os.path.join(OUT, file), optimize=True)
        warps.append({"name": name, "tiles": tiles, "width": out_w, "height": out_h,
                      "keep_aspect_ratio": keep, "file": file})
    # Confidence masks resized as MediaPipe's segmenter resizes them (cv2.resize, INTER_LINEAR).
    rng = np.random.RandomState(7)
    resizes = []
    for (w, h), (out_w, out_h) in [((7, 5), (16, 11)), ((20, 12), (9, 7)), ((6, 6), (6, 13))]:
        mask = rng.uniform(0, 1, (h, w)).astype(np.float32)
        out = cv2.resize(mask, (out_w, out_h), interpolation=cv2.INTER_LINEAR)
        resizes.append({"width": w, "height": h, "values": [f32(v) for v in mask.ravel()],
                        "out_width": out_w, "out_height": out_h, "out_values": [f32(v) for v in out.ravel()]})
    return {"opencv": cv2.__version__, "warps": warps, "mask_resizes": resizes}


def main():
    os.makedirs(OUT, exist_ok=True)
    about = {"mediapipe": mp.__version__,
             "face_model": {"file": FACE_MODEL, "sha256": sha256(FACE_MODEL)},
             "selfie_model": {"file": SELFIE_MODEL, "sha256": sha256(SELFIE_MODEL)}}

    def write(name, value):
        with open(os.path.join(OUT, name), "w") as f:
            json.dump(value, f, separators=(",", ":"))
            f.write("\n")

    write("anchors.json", {**about, "configs": [{"name": name, "options": options, "anchors": anchors(options)}
                                                for name, options in ANCHOR_CONFIGS]})
    write("nms.json", {**about, "cases": nms_cases()})
    write("faces.json", {**about, "images": faces()})
    write("segmentation.json", {**about, "images": segmentation()})
    write("resampling.json", resampling())


if __name__ == "__main__":
    main()
