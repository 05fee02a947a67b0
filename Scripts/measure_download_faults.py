#!/usr/bin/env python3
"""Measures `tflite model download` against a loopback server that misbehaves: for each fault,
the wall time, the CPU time of the tool (user + system, from the kernel's child accounting),
its exit status and last line of stderr, and whether the cache still holds exactly the
previous good model (its record and its file, nothing else).

    python3 Scripts/measure_download_faults.py --tflite .build/release/tflite [--timeout 30]

Faults: the model file's server accepts and never answers (stall-headers); sends half the body
and stops (stall-body); sends one byte a second (drip); sends the body gzip-encoded (gzip, which
should succeed and replace the model); redirects to itself (redirect-loop); and a manifest
naming a port nothing listens on (refused). Needs only the Python standard library.
"""
import argparse
import gzip
import hashlib
import http.server
import json
import os
import resource
import shutil
import socket
import subprocess
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOOD = os.path.join(ROOT, "Tests/Fixtures/corpus/models/zoo_pool.tflite")
UPGRADE = os.path.join(ROOT, "Tests/Fixtures/corpus/models/zoo_act_relu.tflite")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    fault = None        # how /model-2.tflite is served
    refused_port = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_bytes(self, body, extra=()):
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        fault = self.server.fault
        if self.path == "/manifest.json":
            version, payload = ("1", GOOD) if fault is None else ("2", UPGRADE)
            data = open(payload, "rb").read()
            url = "model-%s.tflite" % version
            if fault == "refused":
                url = "http://127.0.0.1:%d/model-2.tflite" % self.server.refused_port
            manifest = {"name": "flowers", "version": version, "url": url,
                        "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            return self.send_bytes(json.dumps(manifest).encode())
        if self.path == "/model-1.tflite":
            return self.send_bytes(open(GOOD, "rb").read())
        body = open(UPGRADE, "rb").read()
        if fault == "stall-headers":
            time.sleep(3600)
        elif fault == "stall-body":
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            time.sleep(3600)
        elif fault == "drip":
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for b in body:
                    self.wfile.write(bytes([b]))
                    self.wfile.flush()
                    time.sleep(1)
            except (BrokenPipeError, ConnectionResetError):
                pass    # the tool gave up, as it should
        elif fault == "gzip":
            self.send_bytes(gzip.compress(body), [("Content-Encoding", "gzip")])
        elif fault == "redirect-loop":
            self.send_response(302)
            self.send_header("Location", self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()


def snapshot(cache):
    """Every file under the cache folder with its bytes, but the lock file."""
    out = {}
    for base, _, files in os.walk(cache):
        for f in files:
            if f != ".lock":
                p = os.path.join(base, f)
                out[os.path.relpath(p, cache)] = open(p, "rb").read()
    return out


def run(tflite, url, cache, timeout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run([tflite, "model", "download", "flowers", "--url", url, "--cache-dir", cache,
                        "--timeout", str(timeout)], capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = (p.stderr.strip().splitlines() or [p.stdout.strip()])[-1]
    return wall, cpu, p.returncode, last


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tflite", required=True)
    ap.add_argument("--timeout", type=int, default=30, help="the tool's --timeout, seconds (default 30)")
    args = ap.parse_args()
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    refused_port = closed.getsockname()[1]
    closed.close()
    print("| fault | wall s | CPU s | exit | cache holds the previous model | last message |")
    print("|---|---:|---:|---:|---|---|")
    for fault in ["stall-headers", "stall-body", "drip", "gzip", "redirect-loop", "refused"]:
        server = Server(("127.0.0.1", 0), Handler)
        server.refused_port = refused_port
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/manifest.json" % server.server_address[1]
        cache = tempfile.mkdtemp(prefix="tflite-faults-")
        try:
            _, _, status, message = run(args.tflite, url, cache, args.timeout)
            if status != 0:
                raise SystemExit("the good download failed: %s" % message)
            previous = snapshot(cache)
            server.fault = fault
            wall, cpu, status, message = run(args.tflite, url, cache, args.timeout)
            kept = "yes" if snapshot(cache) == previous else "replaced by the new version" if status == 0 else "NO"
            print("| %s | %.2f | %.3f | %d | %s | %s |" % (fault, wall, cpu, status, kept, message))
        finally:
            server.shutdown()
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
