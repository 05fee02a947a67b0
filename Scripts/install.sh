#!/usr/bin/env bash
# Builds the `tflite` tool with the Swift runtime linked in statically and installs it with its
# bundled models: PREFIX/bin/tflite and PREFIX/share/tflite/Models (where the tool looks for its
# default model and photo). The binary then needs no Swift toolchain where it runs: only the C
# and C++ libraries and libcurl (Foundation's URLSession, which fetches https models, is built
# on it; Debian: libcurl4). Linking it needs libcurl's development files (Debian:
# libcurl4-openssl-dev).
#
#     Scripts/install.sh                 # PREFIX=/usr/local
#     Scripts/install.sh ~/.local        # or any folder; add PREFIX/bin to PATH
set -euo pipefail
prefix=${1:-/usr/local}
cd "$(dirname "$0")/.."
if [ "$(uname -s)" = Linux ] && ! ldconfig -p | grep -q 'libcurl\.so '; then
    echo "error: linking the Swift runtime statically needs libcurl's development files" \
         "(Debian/Ubuntu: apt-get install libcurl4-openssl-dev)" >&2
    exit 1
fi
# A build folder of its own: the static link flags differ from the README's build.
swift build -c release --product tflite --static-swift-stdlib --scratch-path .build/install
bin=$(swift build -c release --product tflite --static-swift-stdlib --scratch-path .build/install --show-bin-path)
mkdir -p "$prefix/bin" "$prefix/share/tflite/Models/images"
install -s -m 755 "$bin/tflite" "$prefix/bin/tflite"   # stripped: 64 MB instead of 95
install -m 644 Models/*.tflite "$prefix/share/tflite/Models/"
install -m 644 Models/images/* "$prefix/share/tflite/Models/images/"
echo "installed $prefix/bin/tflite ($("$prefix/bin/tflite" --version | head -1)) and its models in $prefix/share/tflite"
