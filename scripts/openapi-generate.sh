#!/usr/bin/env bash
# Writes the contract's Swift code (types, client, server protocol) into Sources/SkiffAPI/Generated from
# Sources/SkiffAPI/openapi.yaml, with swift-openapi-generator built in its own package (Tools/OpenAPIGenerate), so
# the app's build never builds the generator (docs/decisions/0202-generated-contract-code-committed.md).
#
#   scripts/openapi-generate.sh            write the files (run it after every change to openapi.yaml)
#   scripts/openapi-generate.sh --check    write them to a scratch folder and fail, naming the files, when the
#                                          committed ones differ (CI runs this)
set -euo pipefail
cd "$(dirname "$0")/.."

tool_package="Tools/OpenAPIGenerate"
target="Sources/SkiffAPI/Generated"
check=0
case "${1:-}" in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: scripts/openapi-generate.sh [--check]" >&2; exit 2 ;;
esac

swift build --package-path "$tool_package" --product swift-openapi-generator </dev/null >&2
generator="$(swift build --package-path "$tool_package" --show-bin-path)/swift-openapi-generator"

out="$(mktemp -d -t skiff-openapi.XXXXXX)"
trap 'rm -rf "$out"' EXIT
"$generator" generate Sources/SkiffAPI/openapi.yaml --config "$tool_package/openapi-generator-config.yaml" \
    --output-directory "$out" >&2

if [ "$check" = 1 ]; then
    if ! diff -r -q "$target" "$out" >/dev/null; then
        diff -r -q "$target" "$out" | sed "s|$out|(generated)|" >&2 || true
        echo "Sources/SkiffAPI/Generated is not what openapi.yaml makes: run scripts/openapi-generate.sh and commit it" >&2
        exit 1
    fi
    echo "Sources/SkiffAPI/Generated is current"
else
    rm -rf "$target"
    mkdir -p "$target"
    cp "$out"/*.swift "$target"/
    echo "wrote $(ls "$target" | wc -l) files to $target"
fi
