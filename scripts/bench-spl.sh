#!/usr/bin/env bash
# SPL ingest benchmark over the 2,521-document DailyMed archive (not part of CI):
# unpacks ../shared/data/labels/dailymed-spl-2521.tar.xz into a temp dir, then times
# `drugcite ingest --lexical-only` on
#   xml  — the unpacked directory of SPL XML files
#   zip  — the same documents packed as DailyMed ships them: one zip per label (XML and an
#          image) inside one zip of zips
#   tar  — the .tar.xz archive itself, streamed (never unpacked)
# and prints labels read/indexed, segments, skipped by reason, unknown section codes and
# seconds for each. Usage: scripts/bench-spl.sh [DRUGCITE_BINARY [extra ingest args…]]
# (default target/release/drugcite; extra args go to `drugcite ingest`, e.g. `--vocab DIR`).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-target/release/drugcite}"
shift || true
shared="${DRUGCITE_SHARED_DATA:-../shared/data}"
archive="$shared/labels/dailymed-spl-2521.tar.xz"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

start=$(date +%s.%N)
mkdir "$work/xml"
tar -xJf "$archive" -C "$work/xml"
echo "unpacked $(find "$work/xml" -name '*.xml' | wc -l) documents ($(du -sh "$work/xml" | cut -f1)) in $(echo "$(date +%s.%N) - $start" | bc) s"

python3 - "$work/xml" "$work/dm_spl_release.zip" <<'PY'
import io, pathlib, sys, zipfile
root, out = pathlib.Path(sys.argv[1]), sys.argv[2]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as release:
    for xml in sorted(root.rglob("*.xml")):
        label = io.BytesIO()
        with zipfile.ZipFile(label, "w", zipfile.ZIP_DEFLATED) as one:
            one.write(xml, xml.name)
            one.writestr(xml.stem + ".jpg", b"\xff\xd8\xff\xe0" + bytes(4096))
        release.writestr(xml.stem + ".zip", label.getvalue())
PY
echo "zip of zips: $(du -sh "$work/dm_spl_release.zip" | cut -f1)"

run() {
    local name="$1" input="$2" start end report
    shift 2
    start=$(date +%s.%N)
    report="$("$bin" ingest --data-dir "$work/data-$name" --lexical-only "$@" "$input" 2>/dev/null)"
    end=$(date +%s.%N)
    echo "== $name: $input"
    grep -E '^(labels (read|indexed|superseded|skipped)|  [a-z_]+: [0-9]+$|segments|distinct texts|history|unknown SPL|graph|seconds)' <<<"$report"
    echo "wall seconds:      $(echo "$end - $start" | bc)"
    echo "index size:        $(du -sh "$work/data-$name/indexes" | cut -f1)"
}
run xml "$work/xml" "$@"
run zip "$work/dm_spl_release.zip" "$@"
run tar "$archive" "$@"
