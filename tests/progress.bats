#!/usr/bin/env bats
# --progress (lib/prog/prog.c): on a terminal only; the percentage of a
# file read (its size on disk, compressed or not), the rate and the time
# left; stages whose input is a pipe (every stage of a pipeline but the
# first) stay quiet unless --progress=always.  script(1) gives the
# commands a terminal for stderr; stdout goes to a file or a pipe.

load helpers

# onterm CMD: run the shell command CMD with a terminal on stderr; $T/tty
# gets what was drawn, one redraw a line, the clear-to-end codes taken off.
onterm() {
	script -qec "$1" /dev/null | tr '\r' '\n' | sed 's/\x1b\[K//g' | grep -v '^$' >"$T/tty" || true
}

@test "progress: the percentage, the rate and the time left; --progress=never draws nothing" {
	# test-lib reads 10 MiB in ten steps 0.3 s apart: at 50% 5 MiB are read
	# at 5 MiB / 1.2 s (the rate counted from the first step), 5 MiB left
	onterm "test-lib progress --progress 10"
	expect_eq "$(sed -n 1p "$T/tty")" "test-lib:  10.0% (1 of 10 MiB)"
	line=$(grep '^test-lib:  50.0%' "$T/tty")
	expect_match "$line" '^test-lib:  50\.0% \(5 of 10 MiB, [0-9.]+ MiB/s, [0-9]+ s left\)$'
	rate=$(sed 's/.*MiB, \([0-9.]*\) MiB\/s.*/\1/' <<<"$line")
	expect_eq "$(awk -v r="$rate" 'BEGIN { print (r > 2 && r <= 3.4) }')" 1 "rate $rate MiB/s"
	left=$(sed 's/.* \([0-9]*\) s left.*/\1/' <<<"$line")
	expect_eq "$(awk -v r="$rate" -v l="$left" 'BEGIN { d = 4 / r - l; print (d > -1 && d < 1) }')" 1 \
		"5 MiB at $rate MiB/s: $left s"
	expect_eq "$(tail -n 1 "$T/tty")" "test-lib: 100.0% (10 of 10 MiB, $(tail -n 1 "$T/tty" | sed 's/.*MiB, //')"
	onterm "test-lib progress --progress=never 10"
	expect_empty "$(cat "$T/tty")"
	run_status 2 test-lib progress --progress=bogus 1
	expect_match "$output" "--progress: 'bogus' is not auto, always or never"
}

@test "progress: a size not known (a pipe) draws nothing, unless --progress=always" {
	onterm "test-lib progress --progress 0"
	expect_empty "$(cat "$T/tty")"
	onterm "test-lib progress --progress=always 0"
	expect_eq "$(sed -n 1p "$T/tty")" "test-lib: 1 MiB"
	expect_match "$(sed -n 5p "$T/tty")" '^test-lib: 5 MiB, [0-9.]+ MiB/s$'
}

@test "progress: in a pipeline only the first stage, which reads a file, draws" {
	gc-gen -n 40000 copy >"$T/c.gcs"
	onterm "gc-sched --progress '$T/c.gcs' | gc-coalesce --progress | gc-stats --progress >'$T/out'"
	grep -q '^records ' "$T/out"
	grep -Eq '^gc-sched: +[0-9.]+% \([0-9]+ of [0-9]+ MiB' "$T/tty"
	expect_eq "$(grep -vc '^gc-sched: ' "$T/tty")" 0 "lines of other stages"
	# asked for, a later stage draws what it read
	onterm "gc-sched '$T/c.gcs' | gc-coalesce --progress=always | gc-stats >/dev/null"
	grep -Eq '^gc-coalesce: [0-9]+ MiB' "$T/tty"
	expect_eq "$(grep -vc '^gc-coalesce: ' "$T/tty")" 0 "lines of other stages"
	# compressed input: the share of the file on disk, never above 100%
	gzip -c "$T/c.gcs" >"$T/c.gcs.gz"
	onterm "gc-stats --progress '$T/c.gcs.gz' >/dev/null"
	grep -Eq '^gc-stats: +[0-9.]+% \(0 of 0 MiB' "$T/tty"
	expect_eq "$(sed 's/^gc-stats: *\([0-9.]*\)%.*/\1/' "$T/tty" | awk '$1 > 100' | wc -l)" 0
	# no terminal: nothing
	gc-stats --progress "$T/c.gcs" 2>"$T/err" >/dev/null
	expect_empty "$(cat "$T/err")"
}

# falls: the drawings in $T/tty whose percentage is below the one before,
# or 100 and more.
falls() {
	sed 's/^gc-import: *\([0-9.]*\)%.*/\1/' "$T/tty" |
		awk '$1 < last || $1 >= 100 { bad++ } { last = $1 } END { print bad + 0 }'
}

@test "progress: gc-import draws the share of every file it reads, a kernelslist's traces too" {
	# A kernelslist naming a gzip, an xz and a plain trace.  Each trace is
	# read once (one pass: its spool holds what a second pass would
	# write), the list once, each file's bytes as on disk; the first
	# drawing comes after the list and the whole first trace (one block):
	# (L + G) / (L + G + X + P).
	cp "$FIX/accelsim/list/"* "$T/"
	gzip "$T/kernel-1.traceg"
	sed -i 's/^kernel-1\.traceg$/kernel-1.traceg.gz/' "$T/kernelslist.g"
	local want
	want=$(cd "$T" && stat -c %s kernelslist.g kernel-1.traceg.gz kernel-2.traceg.xz kernel-3.trace |
		awk '{ s[NR] = $1 } END { printf "gc-import: %5.1f%% (0 of 0 MiB)",
			100 * (s[1] + s[2]) / (s[1] + s[2] + s[3] + s[4]) }')
	onterm "gc-import --progress '$T/kernelslist.g' >/dev/null"
	expect_eq "$(sed -n 1p "$T/tty")" "$want"
	expect_eq "$(falls)" 0 "drawings falling or at 100%"
	# BFS: 16 xz traces; the first drawing after the list and kernel-1,
	# the later ones (as many as the time takes) never falling, below 100
	local bfs="$FIX/traces/accelsim-v3-volta-bfs-rodinia"
	want=$(cd "$bfs" && stat -c %s kernelslist.g kernel-1.traceg.xz kernel-*.traceg.xz |
		awk 'NR > 2 { t += $1 } NR <= 2 { s[NR] = $1 } END {
			printf "gc-import: %5.1f%% (0 of 0 MiB)", 100 * (s[1] + s[2]) / (s[1] + t) }')
	onterm "gc-import --progress '$bfs/kernelslist.g' >/dev/null"
	expect_eq "$(sed -n 1p "$T/tty")" "$want"
	expect_eq "$(falls)" 0 "drawings falling or at 100%"
	# one trace of 2,415,124 bytes read in two passes (GC_ACCELSIM_SPOOL=0):
	# its second pass joins the total before anything is drawn (while its
	# format is told, 2 MiB are read); the first drawing comes with the
	# rest, at the end of the first pass: 50%.  In one pass (the default)
	# the whole file is read before the first drawing, and nothing at 100%
	# is drawn.  A spool past its budget (4 KiB): the second pass joins the
	# total when the first ends, and the first drawing is its first block.
	local raw="$FIX/traces/accelsim-v5-turing-vecadd-raw/kernel-1-ctx_0x1868c30.trace"
	onterm "GC_ACCELSIM_SPOOL=0 gc-import --progress '$raw' >/dev/null"
	expect_eq "$(sed -n 1p "$T/tty")" "gc-import:  50.0% (2 of 4 MiB)"
	expect_eq "$(falls)" 0 "drawings falling or at 100%"
	onterm "gc-import --progress '$raw' >/dev/null"
	expect_empty "$(cat "$T/tty")"
	onterm "GC_ACCELSIM_SPOOL=4096 gc-import --progress '$raw' >/dev/null"
	expect_eq "$(sed -n 1p "$T/tty")" "gc-import:  50.1% (2 of 4 MiB)"
	expect_eq "$(falls)" 0 "drawings falling or at 100%"
	# a pipe: its size is not known, nothing unless --progress=always
	onterm "cat '$FIX/accelsim/version-5.traceg' | gc-import --progress >/dev/null"
	expect_empty "$(cat "$T/tty")"
	onterm "cat '$FIX/accelsim/version-5.traceg' | gc-import --progress=always >/dev/null"
	expect_eq "$(sed -n 1p "$T/tty")" "gc-import: 0 MiB"
	# no terminal: nothing
	gc-import --progress "$T/kernelslist.g" 2>"$T/err" >/dev/null
	expect_empty "$(cat "$T/err")"
}
