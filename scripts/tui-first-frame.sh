#!/bin/bash
# tui-first-frame.sh BIN MAP — milliseconds from the TUI's execve to its first frame reaching the
# terminal (the first 3,000 bytes written to it), timed by strace inside tmux (../shared/tools/tui-shot).
# Run it twice: the first run after a copy also hashes the map once (and says so).
set -eu
bin=$1; map=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf 'sleep 6\n' > "$dir/script.txt"
"$(dirname "$0")/../../shared/tools/tui-shot" --out "$dir/shot" --size 100x30 --script "$dir/script.txt" --no-png -- \
    strace -f -ttt -e trace=execve,write -s 0 -o "$dir/trace.txt" "$bin" --map "$map" >/dev/null 2>&1 || true
python3 - "$dir/trace.txt" <<'PY'
import re, sys, collections
t0 = None; writes = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'\d+\s+([\d.]+)\s+(\w+)\((\d*)', line)
    if not m: continue
    t, call, fd = float(m.group(1)), m.group(2), m.group(3)
    if call == 'execve' and t0 is None: t0 = t
    n = re.search(r'=\s*(\d+)', line)
    if call == 'write' and n: writes[fd].append((t, int(n.group(1))))
# The terminal is the descriptor written to most often (curses writes a frame in many small
# pieces; a session's map copy writes 16 MB pieces to its memory file, which must not count).
tty = max(writes, key=lambda fd: len(writes[fd]), default=None)
frame, total = None, 0
for t, n in writes.get(tty, []):
    total += n
    if total >= 3000: frame = t; break
print(f"first frame {1000 * (frame - t0):.0f} ms after exec" if t0 and frame else "no frame seen")
PY
