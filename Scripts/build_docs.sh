#!/usr/bin/env bash
# Builds the DocC catalog of every library product into .build/docs/NAME.doccarchive, from the
# symbol graphs of the release build's modules (run `swift build -c release` for the products
# first; .ci/run does), with the toolchain's own `docc`: no package plugin needed. Fails when
# an article or landing page has a problem (a link to a symbol or article that does not
# exist); warnings about the sources' own doc comments are printed but do not fail.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=.build/release/Modules
triple=$(swift -print-target-info | sed -n 's/.*"unversionedTriple": "\(.*\)".*/\1/p' | head -1)
out=.build/docs
rm -rf "$out" && mkdir -p "$out"
status=0
for catalog in Sources/*/*.docc; do
    module=$(basename "$catalog" .docc)
    graphs="$out/$module.symbols"
    mkdir -p "$graphs"
    swift symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" \
        -minimum-access-level public -output-dir "$graphs"
    log="$out/$module.log"
    docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --fallback-display-name "$module" \
        --fallback-bundle-identifier "swift-tflite.$module" --output-path "$out/$module.doccarchive" > "$log" 2>&1
    warnings=$(grep -c 'warning:' "$log" || true)
    # docc names a catalog's own files by their .md name, the sources by their .swift path.
    problems=$(grep -A1 'warning:' "$log" | grep -B1 -E -- '--> .*\.md:' || true)
    if [ -n "$problems" ]; then
        echo "$catalog: problems in its articles:"
        echo "$problems"
        status=1
    else
        echo "$catalog: built ($warnings warnings from doc comments)"
    fi
done
exit $status
