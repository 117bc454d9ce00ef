#!/usr/bin/env bats
# examples/seed000-fig12, examples/seed003-table5 and examples/miss-breakdown
# at their --small size: each checks its own numbers, exactly where they can
# be worked by hand or by an independent path, and as trends where the
# papers report trends.  Where our model goes the other way than the paper,
# the test asserts what the model does and says why.

load helpers

# col FILE KERNEL PARAM FACTOR COLUMN: one value of fig12.csv.
col() {
	awk -F, -v k="$2" -v p="$3" -v f="$4" -v c="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) n[$i] = i; next }
		$1 == k && $2 == p && $3 == f { print $n[c] }' "$1"
}

@test "seed000-fig12: the sweep's table, its exact points, and seed 000 §7's trends" {
	cd "$T"
	run_status 0 "$GC_ROOT/examples/seed000-fig12" --small -j 2 -w f
	csv=f/fig12.csv
	# 5 kernels x (4 parameters x 5 factors - the 512-byte line)
	expect_eq "$(($(wc -l <"$csv") - 1))" 95
	expect_eq "$(cut -d, -f1 "$csv" | uniq | tr '\n' ' ')" "kernel spmv stencil2d matmul bfs mm "
	# The base (1x) is the same run in every parameter's series.
	for p in size line mshr; do
		expect_eq "$(col $csv bfs $p 1 misses)" "$(col $csv bfs assoc 1 misses)"
	done
	# The matrixmul trace (one 32x32 tile per array, 2048 load and 1024
	# store lanes of 4 bytes): 64 + 32 warp requests of one 128-byte line
	# each, every line requested once: 96 compulsory misses whatever the
	# associativity, size or MSHRs; 64- and 32-byte lines split each
	# request in 2 and 4, still without reuse.
	for p in assoc size mshr; do
		for f in 0.25 0.5 1 2 4; do
			expect_eq "$(col $csv mm $p $f requests),$(col $csv mm $p $f misses)" "96,96"
		done
	done
	expect_eq "$(col $csv mm line 0.5 requests),$(col $csv mm line 0.5 misses)" "192,192"
	expect_eq "$(col $csv mm line 0.25 requests),$(col $csv mm line 0.25 misses)" "384,384"
	# The geometry each point ran with.
	expect_eq "$(col $csv bfs assoc 0.25 value) $(col $csv bfs size 4 value) $(col $csv bfs line 2 value) $(col $csv bfs mshr 0.25 value)" \
		"1 65536 256 16"
	# Seed 000 §7, as the script reports it:
	#  - cache size is the most important parameter for spmv (paper: lbm,
	#    spmv); here for the BFS trace and the stencil too;
	expect_match "$output" "cache size the most important parameter \(paper: lbm, spmv\): spmv stencil2d bfs"
	[ "$(col $csv spmv size 4 miss_rate | awk '{ print ($1 < 0.5 * '"$(col $csv spmv size 1 miss_rate)"') }')" = 1 ]
	#  - 128 or 256-byte lines are best: 256 for all but BFS, whose best is
	#    64 bytes, by 0.05 points over 128 (a mismatch the script shows);
	expect_match "$output" "best line size \(paper: 128 or 256 B\): spmv 256 stencil2d 256 matmul 256 bfs 64 mm 256"
	#  - 16 or 32 MSHRs give fewer misses for spmv (paper: lbm, spmv): a
	#    warp that finds no MSHR waits and the others' requests to its lines
	#    hit later (seed 000 §4.4);
	expect_match "$output" "16 or 32 MSHRs better than 64 \(paper: lbm, spmv; others hardly influenced\): spmv stencil2d bfs"
	#  - a lower associativity can give fewer misses, as for spmv.
	expect_match "$output" "1 or 2 ways better than 4 \(paper: spmv, cutcp\): spmv"
	# A plot per kernel when gc-plot is there.
	if command -v gc-plot >/dev/null 2>&1; then
		for k in spmv stencil2d matmul bfs mm; do
			grep -q '^<svg ' "f/fig12-$k.svg"
		done
		sh "$GC_ROOT/tests/svgcheck" f/fig12-*.svg
	fi
}

@test "seed003-table5: exact DRAM traffic of the small traces and the ablations' directions on BFS" {
	cd "$T"
	run_status 0 "$GC_ROOT/examples/seed003-table5" --small -j 2 -w t
	csv=t/table5.csv
	# The L1's sector hit rate is gc-l1's "sector_hit_rate" (0.0000
	# without reuse).
	S1=0.0000
	grep -q 'gc-l1\.sector_hit_rate' t/sweep/results.csv
	# per-level hit rates side by side: a bar chart per trace, a bar for
	# L1 and one for L2 in each of the six variants
	n=$(ls t/table5-*.svg | wc -l)
	expect_eq "$n" "$(awk -F, 'NR > 1 && !s[$1]++' "$csv" | wc -l)"
	for f in t/table5-*.svg; do
		expect_eq "$(grep -c 'class="bar"' "$f")" 12
	done
	sh "$GC_ROOT/tests/svgcheck" t/table5-*.svg
	expect_eq "$(($(wc -l <"$csv") - 1))" 18
	# vectoradd, 100 floats per array: A and B are 400 bytes = 13 sectors
	# (4 lines) each: 26 reads.  The store to C under Volta's write-
	# validating L2 (lazy-fetch-on-read) reads nothing; the kernel-end
	# flush writes its 12 full sectors and the 16 bytes of the 13th: 400
	# bytes, 12 transactions of 32 (rounded down).  Without L1 or L2
	# sectors every load miss moves whole lines: 2 x 16 sector reads.  No
	# reuse: no hits anywhere, by request or by sector.  Warm (no flush),
	# C stays dirty in the L2 and is never written.
	expect_eq "$(grep '^vectoradd,Final,' $csv)" "vectoradd,Final,0.0000,0.0000,26,12,38,$S1,0.0000"
	expect_eq "$(grep '^vectoradd,L1NonSec,' $csv)" "vectoradd,L1NonSec,0.0000,0.0000,32,12,44,$S1,0.0000"
	expect_eq "$(grep '^vectoradd,L2NonSec,' $csv)" "vectoradd,L2NonSec,0.0000,0.0000,32,12,44,$S1,0.0000"
	expect_eq "$(grep '^vectoradd,NoL1Filter,' $csv)" "vectoradd,NoL1Filter,0.0000,0.0000,26,12,38,$S1,0.0000"
	expect_eq "$(grep '^vectoradd,WarmL2,' $csv)" "vectoradd,WarmL2,0.0000,0.0000,26,0,26,$S1,0.0000"
	# matrixmul, three 32x32 float matrices of 4096 bytes = 128 sectors:
	# A and B read, C written whole (no read) and written back at the
	# flush: the same in every flushed variant (whole, aligned lines).
	expect_eq "$(grep -c "^matrixmul,[A-Za-z0-9]*,0.0000,0.0000,256,128,384,$S1,0.0000\$" $csv)" 5
	expect_eq "$(grep '^matrixmul,WarmL2,' $csv | cut -d, -f5-7)" "256,0,256"
	# BFS, the one trace with reuse.  Seed 003 §5.3: without L1 filtering
	# the L2 hit rate rises (agrees); without the adaptive carve-out the
	# L1 is 32 KB instead of 128 KB and hits less (agrees: the paper's
	# error grows); without L2 sectors DRAM traffic grows (agrees).  Without
	# L1 sectors our L1 hit rate rises (61% -> 70%), where the paper sees
	# little change: the paper stands in 32-byte lines for "no sectors",
	# we fill whole 128-byte lines, which prefetch the line's other sectors.
	expect_match "$output" "bfs          L1NonSec: L1 hit rate up; L2NonSec: DRAM up \(14193 -> 20269\); NoL1Filter: L2 hit rate up; NoAdaptL1: L1 hit rate down"
	# A whole-line L1 sends whole lines to L2, so L2 fetches as it would
	# without sectors: the same DRAM reads (the writes differ: partial
	# sectors write back their bytes, and the two have different sectors).
	expect_eq "$(grep '^bfs,L1NonSec,' $csv | cut -d, -f5)" "$(grep '^bfs,L2NonSec,' $csv | cut -d, -f5)"
	# Per sector and per request at the L2 (Final): 57.43% and 63.69%;
	# the warm L2 reads 4992 sectors from DRAM where the cold one reads
	# 11497 (the flush writes 2696 transactions' worth, the warm none).
	expect_eq "$(grep '^bfs,Final,' $csv | cut -d, -f4-7,9)" "0.6369,11497,2696,14193,0.5743"
	expect_eq "$(grep '^bfs,WarmL2,' $csv | cut -d, -f4-7,9)" "0.8548,4992,0,4992,0.8318"
	# The L1 does not change under L2NonSec.
	expect_eq "$(grep '^bfs,L2NonSec,' $csv | cut -d, -f3)" "$(grep '^bfs,Final,' $csv | cut -d, -f3)"
}

@test "miss-breakdown: classes sum to the misses, and compulsory misses are the distinct lines loaded" {
	cd "$T"
	run_status 0 "$GC_ROOT/examples/miss-breakdown" --small -w m
	bfs=m/accelsim-v3-volta-bfs-rodinia
	# Both columns sum to the total, in each kernel.
	for k in $bfs m/stencil2d; do
		awk '$1 ~ /^(compulsory|capacity|associativity|latency|MSHR)$/ { a += $2; b += $4 }
			$1 == "total" { t = $2 } END { exit !(t > 0 && a == t && b == t) }' "$k.table"
	done
	# The infinite run (no evictions, no latency, no MSHR limit) misses
	# exactly on the first global load of each line on each SM in each
	# kernel (the L1s are flushed between kernels), counted here from the
	# coalesced stream itself.
	first_loads() {
		gc-stats --dump | awk -F, '$8 == "load" && $9 == "global" {
			# the 128-byte line: all hex digits but the last two, and
			# whether the second last is 8 or more
			a = tolower($10); line = substr(a, 1, length(a) - 2) (index("89abcdef", substr(a, length(a) - 1, 1)) > 0)
			k = $1 " " $2 " " line
			if (!(k in seen)) { seen[k] = 1; n++ } } END { print n }'
	}
	want=$(gc-import --gpu fermi-gtx470-16k "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" |
		gc-sched --gpu fermi-gtx470-16k | gc-coalesce | first_loads)
	expect_eq "$(awk '$1 == "compulsory" { print $2 }' $bfs.table)" "$want"
	want=$(gc-gen --gpu fermi-gtx470-16k -n 96 stencil2d | gc-sched --gpu fermi-gtx470-16k | gc-coalesce | first_loads)
	expect_eq "$(awk '$1 == "compulsory" { print $2 }' m/stencil2d.table)" "$want"
	# The small stencil's data fit in 128 lines: no capacity misses.
	expect_eq "$(awk '$1 == "capacity" { print $2, $4 }' m/stencil2d.table)" "0 0"
	# BFS: a fully associative LRU L1 misses more than the 4-way Fermi-
	# hashed one (cyclic sweeps over more lines than the cache holds evict
	# every line before its reuse under LRU; the hash spreads them), and
	# the latencies and the MSHR limits reorder the warps so that fewer
	# misses remain: the comparison gives negative associativity, latency
	# and MSHR classes, where the one-pass classification counts each miss
	# by its cause (802, 3945 and 522; associativity was 1292 before the
	# three-C shadow saw every reference, issue 16).
	expect_eq "$(awk '$1 ~ /^(associativity|latency|MSHR)$/ { printf "%s %s %s; ", $1, $2, $4 }' $bfs.table)" \
		"associativity -952 802; latency -2324 3945; MSHR -670 522; "
}

@test "seed000-fig12, seed003-table5, miss-breakdown: --help, and bad arguments are usage errors" {
	for s in seed000-fig12 seed003-table5 miss-breakdown; do
		run_status 0 "$GC_ROOT/examples/$s" --help
		expect_match "$output" "Usage: examples/$s "
		run_status 2 "$GC_ROOT/examples/$s" --bogus
		expect_match "$output" "unknown"
		run_status 2 "$GC_ROOT/examples/$s" -w
	done
	run_status 1 "$GC_ROOT/examples/miss-breakdown" -w "$T/m" "$T/no-such-trace"
	expect_match "$output" "neither a gc-gen kernel nor a readable file"
}
