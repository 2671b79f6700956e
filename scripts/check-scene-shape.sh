#!/usr/bin/env bash
# The canonical scene shape (CONTRIBUTING.md, "Add a scene"), checked file for file. Every folder under
# Sources/Skiff/Scenes except Shared is a scene <Name>, and holds exactly:
#   Sources/Skiff/Scenes/<Name>/<Name>{Models,Interactor,Presenter,ViewController}.swift
#   Tests/SkiffTests/Scenes/<Name>/<Name>{Interactor,Presenter,Screen}Tests.swift
#   Tests/SkiffTests/Scenes/<Name>/__Snapshots__/<Name>ScreenTests/*.txt   (at least one recorded screen)
# and is in Package.swift's scenesWithSnapshots (so SkiffTests does not compile its recordings). A test folder
# under Tests/SkiffTests/Scenes without a scene (other than Shared) is extra too.
# Prints every missing or extra file by path and exits 1 if there is any; run from anywhere in the checkout.
set -euo pipefail
cd "$(dirname "$0")/.."

sources=Sources/Skiff/Scenes
tests=Tests/SkiffTests/Scenes
shared=Shared
problems=0
report() { echo "$1: $2"; problems=$((problems + 1)); }

# The files a folder holds (relative to it, sorted), directories marked with a trailing slash.
listing() {
    (cd "$1" && find . -mindepth 1 \( -type d -printf '%P/\n' \) -o \( -type f -printf '%P\n' \)) | LC_ALL=C sort
}

# Reports each file `expected` (a sorted list) has and `actual` lacks as missing, and the reverse as extra, under `folder`.
compare() {
    local folder="$1" expected="$2" actual="$3" file
    while IFS= read -r file; do
        [ -n "$file" ] && report missing "$folder/$file"
    done < <(LC_ALL=C comm -23 <(echo "$expected") <(echo "$actual"))
    while IFS= read -r file; do
        [ -n "$file" ] && report extra "$folder/$file"
    done < <(LC_ALL=C comm -13 <(echo "$expected") <(echo "$actual"))
}

scenes=()
for dir in "$sources"/*/; do
    name="$(basename "$dir")"
    [ "$name" = "$shared" ] && continue
    scenes+=("$name")
done

listed="$(sed -n '/^let scenesWithSnapshots = \[/,/^\]/p' Package.swift | tr -d ' \n')"

for name in "${scenes[@]}"; do
    before=$problems
    expected_sources="$(printf '%s\n' "$name"{Models,Interactor,Presenter,ViewController}.swift | LC_ALL=C sort)"
    compare "$sources/$name" "$expected_sources" "$(listing "$sources/$name")"

    if [ ! -d "$tests/$name" ]; then
        report missing "$tests/$name/"
    else
        snapshots="__Snapshots__/${name}ScreenTests"
        expected_tests="$(printf '%s\n' "$name"{Interactor,Presenter,Screen}Tests.swift "__Snapshots__/" "$snapshots/" | LC_ALL=C sort)"
        # Recorded screens are .txt files directly in the snapshot folder; any number from one up.
        compare "$tests/$name" "$expected_tests" "$(listing "$tests/$name" | grep -v -E "^${snapshots}/[^/]+\.txt$" || true)"
        if [ -d "$tests/$name/$snapshots" ] && ! ls "$tests/$name/$snapshots"/*.txt >/dev/null 2>&1; then
            report missing "$tests/$name/$snapshots/*.txt (no recorded screen)"
        fi
    fi

    case "$listed" in
        *"\"$name\""*) ;;
        *) report missing "\"$name\" in Package.swift's scenesWithSnapshots" ;;
    esac
    [ "$problems" -eq "$before" ] && echo "ok: $name"
done

for dir in "$tests"/*/; do
    name="$(basename "$dir")"
    [ "$name" = "$shared" ] && continue
    [ -d "$sources/$name" ] || report extra "$tests/$name/ (no scene $sources/$name)"
done

if [ "$problems" -gt 0 ]; then
    echo "scene shape: $problems problem(s) in ${#scenes[@]} scenes (see CONTRIBUTING.md, \"Add a scene\")" >&2
    exit 1
fi
echo "scene shape: ${#scenes[@]} scenes, all in the canonical shape"
