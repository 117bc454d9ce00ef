#!/usr/bin/env bats
# gc-l1 --ways-sweep: every associativity in one pass (lib/model/waysweep.c)
# against hand-worked sectors and against separate gc-l1 runs, one per
# associativity, per kernel, on the BFS trace and two gc-gen kernels.  The
# equality covers the associativities 1, 2, 3, 4, 8 and 16 (the sweep
# takes up to 1024; six keep the test fast), sectored and not, write-
# through and write-back, lazy-fetch-on-read, write-allocate and
# fetch-on-write, kernel flush and keep, linear and Fermi set indices.

load helpers

# sep FILE OPTS...: separate runs of 1 2 3 4 8 16 ways as lines
# "W total hits misses sector_misses sector_hits" and "W kernel ID hits misses".
sep() {
	local f=$1 w
	shift
	for w in 1 2 3 4 8 16; do
		echo "ways $w"
		gc-l1 "$@" --ways $w --emit none "$f" || echo "failed $w"
	done | tr ',:()' '    ' | awk '
		$1 == "ways" { w = $2; next }
		$1 == "failed" { print; next }
		$2 == "requests" { for (i = 2; i < NF; i++) { if ($i == "hits") h = $(i + 1); if ($i == "misses" && $(i - 1) != "sector") m = $(i + 1); if ($i == "sector") s = $(i + 2) } }
		$2 == "sectors" { for (i = 2; i < NF; i++) if ($i == "hits") print w, "total", h, m, s, $(i + 1) }
		$2 == "kernel" { print w, "kernel", $3, $(NF - 3), $(NF - 1) }'
}

# one FILE OPTS...: the sweep of the same, in the same form.
one() {
	local f=$1
	shift
	gc-l1 "$@" --ways-sweep 1..4,8,16 -v "$f" 2>"$T/rep" >"$T/csv" || echo failed
	awk -F, 'NR > 1 { t[$1] = $1 " total " $4 " " $5 " " $6 " " $9 }
		END { n = split("1 2 3 4 8 16", w, " "); for (i = 1; i <= n; i++) print t[w[i]] }' "$T/csv" >"$T/tot"
	tr ',:' '  ' <"$T/rep" | awk '$2 == "kernel" {
		for (i = 1; i <= NF; i++) if ($i == "misses") break
		for (j = i + 1; j + 2 <= NF; j += 3) print $j, "kernel", $3, $(j + 1), $(j + 2) }' >"$T/ker"
	# the separate runs list a kernel's associativities apart: same order
	awk '{ print > ("'"$T"'/w" $1) }' "$T/tot" "$T/ker"
	for w in 1 2 3 4 8 16; do cat "$T/w$w"; done
}

@test "gc-l1 --ways-sweep: sectors and a partial store worked by hand, one set of 1 to 3 ways" {
	# Lines A, B, C of 4 sectors in one set; "need": the least W holding
	# a sector.  1 A.0, 2 B.0: misses everywhere.  3 A.01: A at depth 1,
	# present from 2 ways, sector 1 never fetched: a miss everywhere (a
	# sector miss from 2 ways).  4 C.0: misses.  5 A.1: depth 1, sector 1
	# valid since 3: a hit from 2 ways.  6 store B.0, 4 bytes (partial,
	# lazy-fetch-on-read validates nothing): depth 2, a hit from 3 ways;
	# where it missed (1, 2 ways) B is allocated with no sector valid.
	# 7 B.0: depth 0: a sector miss at 1 and 2 ways, a hit at 3.
	# Sector hits: 3's sector 0 from 2 ways, 5, 6 and 7 as above.
	# ways: hits misses sector_misses sector_hits (8 sectors requested)
	#   1: 0 7 1 0;  2: 1 6 2 2;  3: 3 4 1 4
	awk -f "$FIX/l1/mkreq.awk" >"$T/h.csv" <<'EOF'
K 1 k 32 0 16
0 0 0 1 load 0x000 0x1 4
0 0 0 2 load 0x080 0x1 4
0 0 0 3 load 0x000 0x3 8
0 0 0 4 load 0x100 0x1 4
0 0 0 5 load 0x020 0x2 4
0 0 0 6 store 0x080 0x1 4
0 0 0 7 load 0x080 0x1 4
EOF
	gc-import -f csv "$T/h.csv" >"$T/h.gcs"
	o="--gpu volta-v100 --sets 1 --sector 32 --write write-through --write-alloc lazy-fetch-on-read"
	# shellcheck disable=SC2086
	run_status 0 gc-l1 $o --ways-sweep 1..3 "$T/h.gcs"
	expect_eq "$(echo "$output" | cut -d, -f1,4,5,6,8,9 | tr '\n' ' ')" \
		"ways,hits,misses,sector_misses,sectors.requested,sectors.hits 1,0,7,1,8,0 2,1,6,2,8,2 3,3,4,1,8,4 "
	# shellcheck disable=SC2086
	expect_eq "$(gc-l1 $o --ways 2 --emit none "$T/h.gcs" | sed -n 2p | cut -d: -f3 | cut -d, -f1,2)" \
		" hits 1, misses 6 (sector misses 2)"
}

@test "gc-l1 --ways-sweep: equal to separate runs of 1, 2, 3, 4, 8, 16 ways, per kernel, on BFS and gc-gen kernels" {
	# BFS through gc-sched and gc-coalesce: the V100's sectored L1,
	# write-through, lazy-fetch-on-read, flushed at each kernel's end.
	gc-import "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" 2>/dev/null |
		gc-sched 2>/dev/null | gc-coalesce >"$T/bfs.gcs"
	sep "$T/bfs.gcs" >"$T/bfs.sep"
	one "$T/bfs.gcs" >"$T/bfs.one"
	expect_same "$T/bfs.sep" "$T/bfs.one"
	# its 16 kernels at 6 associativities: one line each
	expect_eq "$(awk '$2 == "kernel"' "$T/bfs.one" | wc -l)" 96
	# spmv on the Fermi L1 (Fermi hash, not sectored), stores allocating
	gc-gen spmv -n 4096 | gc-coalesce >"$T/spmv.gcs"
	expect_same <(sep "$T/spmv.gcs" --write-alloc write-allocate) \
		<(one "$T/spmv.gcs" --write-alloc write-allocate)
	# a 2D stencil on the V100's L1 kept across kernels, write-back,
	# fetch-on-write
	gc-gen stencil2d -n 64 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/st.gcs"
	o="--kernel-boundary keep --write write-back --write-alloc fetch-on-write"
	# shellcheck disable=SC2086
	expect_same <(sep "$T/st.gcs" $o) <(one "$T/st.gcs" $o)
}

@test "gc-l1 --ways-sweep: what breaks the stack property is refused, saying why (exit 2)" {
	gc-gen vecadd -n 256 | gc-coalesce >"$T/v.gcs"
	# the Fermi L1: global stores do not allocate; the first store is
	# record 6 (the header, the kernel's begin and name, two loads)
	run_status 2 gc-l1 --ways-sweep 1..4 "$T/v.gcs"
	expect_match "$output" "record 6: --ways-sweep refuses this store: .*no-write-allocate"
	expect_empty "$(gc-l1 --ways-sweep 1..4 "$T/v.gcs" 2>/dev/null)"
	run_status 2 gc-l1 --ways-sweep 1..4 --write-alloc write-allocate --write write-evict "$T/v.gcs"
	expect_match "$output" "invalidates its line only in the caches that hold it"
	run_status 2 gc-l1 --ways-sweep 1..4 --replacement fifo "$T/v.gcs"
	expect_match "$output" "not LRU"
	run_status 2 gc-l1 --ways-sweep 1..4 --gpu volta-v100 --carveout adaptive "$T/v.gcs"
	expect_match "$output" "adaptive carve-out"
	run_status 2 gc-l1 --ways-sweep 1..4 --timing "$T/v.gcs"
	run_status 2 gc-l1 --ways-sweep 1..4 --ways 4 "$T/v.gcs"
	run_status 2 gc-l1 --ways-sweep 1..4 --emit none "$T/v.gcs"
	for bad in 0 4..2 1..1025 x 1, 1...4; do
		run_status 2 gc-l1 --ways-sweep "$bad" "$T/v.gcs"
	done
	# loads alone are fine under any write policy
	gc-gen strided -n 256 | gc-coalesce >"$T/g.gcs"
	run_status 0 gc-l1 --ways-sweep 1,4 --write write-evict "$T/g.gcs"
}
