#!/usr/bin/env bats
# gc-stats with several streams: reported one after another (a JSON list),
# or added into one report with --sum, which must equal the report of the
# streams' concatenation (made apart: their dumps joined and gc-import).

load helpers

BFS=$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g

# streams: $T/a.gcs the BFS requests (V100), $T/c.gcs a small gc-gen copy
# kernel's requests on the same lines and sectors.
streams() {
	gc-import "$BFS" | gc-sched --gpu volta-v100 | gc-coalesce >"$T/a.gcs"
	gc-gen -n 256 copy | gc-sched --gpu volta-v100 | gc-coalesce >"$T/c.gcs"
}

@test "gc-stats files: several streams are reported one after another" {
	streams
	gc-stats "$T/a.gcs" "$T/c.gcs" >"$T/both"
	{ gc-stats "$T/a.gcs"; echo; gc-stats "$T/c.gcs"; } >"$T/each"
	expect_same "$T/both" "$T/each" "two reports"
	expect_eq "$(grep '^input' "$T/both" | awk '{ print $2 }' | tr '\n' ' ')" "$T/a.gcs $T/c.gcs "
	# xargs: as many as it passes, in order
	ls "$T/a.gcs" "$T/c.gcs" "$T/a.gcs" | xargs gc-stats >"$T/x"
	expect_eq "$(grep -c '^input' "$T/x")" 3
	# -v with --json: the reports on stderr, the list on stdout
	gc-stats -v --json "$T/a.gcs" "$T/c.gcs" >/dev/null 2>"$T/err"
	expect_same "$T/err" "$T/each" "-v"
}

@test "gc-stats files: --json is a list of the single objects, --stats too" {
	streams
	gc-stats --json --stats "$T/s.json" "$T/a.gcs" "$T/c.gcs" >"$T/both"
	{ echo '['; gc-stats --json "$T/a.gcs"; echo ','; gc-stats --json "$T/c.gcs"; echo ']'; } >"$T/each"
	expect_same "$T/both" "$T/each" "the list"
	expect_same "$T/s.json" "$T/each" "--stats"
	if command -v python3 >/dev/null; then
		expect_eq "$(python3 -c 'import json, sys; print([o["records"] for o in json.load(sys.stdin)])' <"$T/both")" "[69908, 16]"
	fi
}

@test "gc-stats files: --sum equals the report of the concatenation" {
	streams
	gc-stats --dump "$T/a.gcs" >"$T/a.csv"
	gc-stats --dump "$T/c.gcs" >"$T/c.csv"
	# the concatenation: a's header, a's kernels, then c's with their times
	# after a's last, and an end line with both counts
	awk -F, -v OFS=, 'FNR == 1 { f++ }
		$8 == "end" { split($17, v, /[= ]/); r += v[2]; d += v[4]
			if (f == 2) printf ",,,,,,,end,,,,,,,,,records=%d data=%d\n", r, d; next }
		f == 1 && $13 != "" { last = $13 }
		f == 2 && (/^#/ || /^kernel,/) { next }
		f == 2 && $13 != "" { $13 += last } { print }' "$T/a.csv" "$T/c.csv" >"$T/m.csv"
	gc-import "$T/m.csv" >"$T/m.gcs"
	gc-stats --json "$T/m.gcs" >"$T/m.json"
	gc-stats --sum --json "$T/a.gcs" "$T/c.gcs" >"$T/s.json"
	# equal but for the names, the stream's own records and bytes (one
	# header and one end record more) and the time (c on its own clock)
	strip() { grep -v -e '^  "input"' -e '^  "files"' -e '^    "' -e '^  ],' \
		-e '"stream_records"' -e '"stream_bytes"' -e '"time_last"' "$1"; }
	expect_same <(strip "$T/s.json") <(strip "$T/m.json") "the sum"
	expect_eq "$(jv records "$T/s.json")" $((69908 + 16)) records
	expect_eq "$(jv stream_records "$T/s.json")" $(($(jv stream_records "$T/m.json") + 1)) "stream records"
	expect_eq "$(jv stream_bytes "$T/s.json")" $(($(wc -c <"$T/a.gcs") + $(wc -c <"$T/c.gcs"))) "stream bytes"
	# the time: the first stream's first, the last stream's last
	gc-stats --json "$T/c.gcs" >"$T/c.json"
	expect_eq "$(jv time_last "$T/s.json")" "$(jv time_last "$T/c.json")" time_last
	expect_eq "$(jv time_first "$T/s.json")" 0 time_first
	expect_eq "$(sed -n '/"files"/,/]/p' "$T/s.json" | tr -d ' \n')" "\"files\":[\"$T/a.gcs\",\"$T/c.gcs\"],"
	# the breakdowns too
	for by in kernel sm pc warp; do
		expect_same <(gc-stats --by $by "$T/m.gcs" | sed -n "/^by $by/,\$p") \
			<(gc-stats --sum --by $by "$T/a.gcs" "$T/c.gcs" | sed -n "/^by $by/,\$p") "--by $by"
	done
	# the report names both
	gc-stats --sum "$T/a.gcs" "$T/c.gcs" >"$T/rep"
	expect_eq "$(sed -n 2p "$T/rep")" "summed with       $T/c.gcs (--sum: counts added, the header the first's)"
}

@test "gc-stats files: --sum of a stream with itself doubles its counts" {
	streams
	gc-stats --json "$T/c.gcs" >"$T/one"
	gc-stats --sum --json "$T/c.gcs" "$T/c.gcs" "$T/c.gcs" >"$T/three"
	expect_eq "$(jv records "$T/three")" 48 records
	expect_eq "$(jv kernel_count "$T/three")" 3 kernels
	expect_eq "$(jv distinct_lines "$T/three")" "$(jv distinct_lines "$T/one")" "distinct lines"
}

@test "gc-stats files: --sum refuses streams of different kinds or sizes, nothing on stdout" {
	streams
	gc-import "$FIX/csv/access.csv" >"$T/acc.gcs"
	sh_status 1 "gc-stats --sum '$T/a.gcs' '$T/acc.gcs'"
	expect_eq "$(cat "$T/err")" "gc-stats: $T/acc.gcs: --sum: a stream of accesses, but $T/a.gcs is of requests: only streams of one kind add up"
	[ ! -s "$T/out" ]
	gc-gen -n 256 copy | gc-sched | gc-coalesce >"$T/f.gcs"
	sh_status 1 "gc-stats --sum --json '$T/a.gcs' '$T/f.gcs'"
	expect_eq "$(cat "$T/err")" "gc-stats: $T/f.gcs: --sum: 128-byte lines and 128-byte sectors, but $T/a.gcs has 128 and 32 (--line and --sector set both)"
	[ ! -s "$T/out" ]
	sh_status 0 "gc-stats --sum --sector 128 '$T/a.gcs' '$T/f.gcs'"
}

@test "gc-stats files: a bad stream among several: its message, exit 1, nothing on stdout" {
	streams
	head -c 1000 "$T/c.gcs" >"$T/cut.gcs"
	for opt in "" --json --sum; do
		sh_status 1 "gc-stats $opt '$T/a.gcs' '$T/cut.gcs'"
		expect_match "$(cat "$T/err")" "^gc-stats: $T/cut.gcs: "
		[ ! -s "$T/out" ]
	done
	sh_status 1 "gc-stats '$T/a.gcs' '$T/none.gcs'"
	[ ! -s "$T/out" ]
	sh_status 2 "gc-stats --sum --dump '$T/a.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-stats: --sum and --dump exclude each other"
}
