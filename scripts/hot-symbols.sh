#!/bin/bash
# Regenerates scripts/hot-symbols.order: the functions a plan (and --help/--version)
# executes, which the release link places side by side (lld --symbol-ordering-file, see the
# Makefile build). The kernel maps up to 64 KB of the binary around each page fault, so hot code
# spread over the 23 MB of text costs a plan ~8 MB of resident pages; packed, ~4 MB.
# Needs valgrind. Usage: make build && scripts/hot-symbols.sh
# (optionally HOT_SYMBOLS_LINK_MAP=map.txt from a release link with `-Xlinker -Map=map.txt`),
# then make build again (it relinks when this list is newer than the binary).
# A stale list is harmless (unknown names are skipped); it only packs less of the hot code.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/release/skateroute
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# valgrind cannot read the Swift debug info of a static binary: profile a copy without it.
strip -g -o "$work/skateroute" "$bin"
B="$work/skateroute"; n=0
run() { n=$((n+1)); valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$n" "$B" "$@" >/dev/null 2>&1 || true; }
run --help; run --version; run plan --help
M=Maps/monaco.srmap
for p in "43.7341,7.4149 43.7260,7.4142" "43.7396,7.4275 43.7310,7.4200" "43.7485,7.4375 43.7380,7.4245"; do
  set -- $p
  for m in smoothest fastMildRoughness chillFewCrossings nightSafe trickSpotCrawl; do
    run plan --from "$1" --to "$2" --map "$M" --no-store --mode "$m"
  done
done
run plan --from "Jardin Exotique" --to "Stade Louis II" --format json --no-store
run plan --from "Jardin Exotique" --to "Stade Louis II"
hd=../shared/data/maps/heidelberg-ors-2024/heidelberg.test.pbf
if [ -f "$hd" ]; then
  "$B" import --osm "$hd" --out "$work/hd.srmap" --name Heidelberg >/dev/null
  for p in "49.4300,8.6850 49.3800,8.6870" "49.4000,8.6400 49.4093,8.6936" "49.4175,8.6690 49.3850,8.7000"; do
    set -- $p
    for m in smoothest fastMildRoughness trickSpotCrawl; do
      run plan --from "$1" --to "$2" --map "$work/hd.srmap" --no-store --mode "$m"
    done
  done
fi
# Every function callgrind saw run (fn=) or be called (cfn=), without its recursion suffix: first
# those of the plans without a store (runs 4-19 and 21 on), then the rest (--help, --version, the
# plan with a store), so what every plan runs is packed tightest. With a linker map of the
# previous release link (HOT_SYMBOLS_LINK_MAP, from `-Xlinker -Map=FILE`), functions in their own
# small section come before those inside a big object's single .text, which cannot be split.
names() { cat "$@" | sed -nE "s/^c?fn=\([0-9]+\) (.*)$/\1/p" | sed -E "s/'[0-9]+$//" | grep -v '^0x' | LC_ALL=C sort -u; }
names $(ls "$work"/cg.* | grep -vE 'cg\.(1|2|3|20)$') > "$work/plan.txt"
# valgrind's CPU makes glibc pick other string-function variants (AVX2) than most machines run
# (EVEX/AVX-512, SSE2): add every variant of each one a plan ran. And the C start-up code
# (crtbegin) callgrind leaves unnamed. Both would otherwise sit outside the packed region.
nm "$B" | awk '$2 ~ /^[tTwW]$/ {print $3}' | LC_ALL=C sort -u > "$work/defined.txt"
python3 - "$work/plan.txt" "$work/defined.txt" >> "$work/plan.txt" <<'PY'
import re, sys
plan = [l.strip() for l in open(sys.argv[1])]
defined = [l.strip() for l in open(sys.argv[2])]
variant = re.compile(r'^(__[a-z0-9]+?)_(avx512|avx2|avx|evex512|evex|sse2|sse4_1|sse4_2|ssse3|erms)')
bases = {m.group(1) for m in map(variant.match, plan) if m}
seen = set(plan)
for d in defined:
    m = variant.match(d)
    if ((m and m.group(1) in bases) or d in ('frame_dummy', 'register_tm_clones', 'deregister_tm_clones')) and d not in seen:
        print(d)
PY
LC_ALL=C sort -u -o "$work/plan.txt" "$work/plan.txt"
names "$work"/cg.* > "$work/all.txt"
python3 - "$work/plan.txt" "$work/all.txt" "${HOT_SYMBOLS_LINK_MAP:-}" > scripts/hot-symbols.order <<'PY'
import re, sys
plan = [l.strip() for l in open(sys.argv[1]) if l.strip()]
rest = [l for l in (l.strip() for l in open(sys.argv[2])) if l and l not in set(plan)]
size = {}
if sys.argv[3]:
    section, in_text = None, False
    for line in open(sys.argv[3]):
        m = re.match(r'\s*[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+(\s+)(\S.*)$', line)
        if not m: continue
        width, name = len(m.group(2)), m.group(3)
        if width <= 1: in_text = name == '.text'
        elif in_text and width <= 9: section = int(m.group(1), 16)
        elif in_text: size[name] = section
SMALL = 16384  # bytes: a section this small is (about) one function
def tiers(names):
    return [n for n in names if size.get(n, 0) <= SMALL] + [n for n in names if size.get(n, 0) > SMALL]
print('\n'.join(tiers(plan) + tiers(rest)))
PY
echo "$(wc -l < scripts/hot-symbols.order) hot functions from $n runs → scripts/hot-symbols.order"
# SwiftPM does not track the order file as a link input (and skips the link when the objects
# come out byte-identical): remove the linked binary so the next release build links again.
rm -f "$bin"
