#!/usr/bin/env bats
# examples/seed003-bfs: the BFS kernels with seed 003's model (Fibonacci
# set index, one 1,152-set L2, write-validate, cold L2 per kernel), per
# kernel.  Kernels 1 and 2 are cross-checked from the coalesced stream
# itself, by a path that shares no code with gc-l1 or gc-l2: with the L1s
# and the L2 cold at each kernel start and far too large to evict anything
# in these kernels, the L1 read misses are the distinct (SM, sector) pairs
# the kernel loads, the DRAM reads the distinct sectors it loads, and the
# DRAM writes the distinct sectors it stores (written back at the flush).

load helpers

# distinct KERNEL: "loads sm_sectors sectors store_sectors" of the coalesced
# BFS stream in $T/front.gcs: sector loads, distinct (SM, sector) loaded,
# distinct sectors loaded, distinct sectors stored.
distinct() {
	gc-stats --dump "$T/front.gcs" | awk -F, -v K="$1" '
	$1 == K && ($8 == "load" || $8 == "store") && $9 == "global" {
		a = tolower($10); sub(/^0x/, "", a); m = tolower($12); sub(/^0x/, "", m); mv = 0
		for (i = 1; i <= length(m); i++) mv = mv * 16 + index("0123456789abcdef", substr(m, i, 1)) - 1
		# the 128-byte line: the address but its last seven bits
		line = substr(a, 1, length(a) - 2) "-" (index("89abcdef", substr(a, length(a) - 1, 1)) > 0)
		for (s = 0; s < 4; s++) {
			if (int(mv / 2 ^ s) % 2 == 0)
				continue
			if ($8 == "load") {
				n++
				if (!(($2, line, s) in ps)) { ps[$2, line, s] = 1; p++ }
				if (!((line, s) in ls)) { ls[line, s] = 1; l++ }
			} else if (!((line, s) in ss)) { ss[line, s] = 1; w++ }
		}
	}
	END { print n + 0, p + 0, l + 0, w + 0 }'
}

@test "seed003-bfs: per kernel, exact, cross-checked from the coalesced stream" {
	cd "$T"
	run_status 0 "$GC_ROOT/examples/seed003-bfs" -w s
	csv=s/bfs.csv
	# the seed's configuration, as the stages report it
	grep -q '^    "index": "fibonacci",$' s/l1.json
	grep -q '^    "index": "fibonacci",$' s/l2.json
	grep -q '^    "sets": 1152,$' s/l2.json
	grep -q '^    "slices": 1,$' s/l2.json
	grep -q '^    "write_alloc": "lazy-fetch-on-read",$' s/l2.json
	grep -q '^    "kernel_boundary": "flush",\?$' s/l2.json
	expect_eq "$(($(wc -l <"$csv") - 2))" 16
	# kernel 1: 180 sector loads, 142 distinct per SM, 142 distinct; 21
	# distinct sectors stored.  Kernel 2: 128, 128, 128; 31 stored (its
	# 40 store sectors reach the L2, write-through, 31 distinct).
	gc-import --gpu "$T/s/seed003.gpu" "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" |
		gc-sched | gc-coalesce >"$T/front.gcs"
	expect_eq "$(distinct 1)" "180 142 142 21"
	expect_eq "$(distinct 2)" "128 128 128 31"
	expect_eq "$(grep '^1,' $csv | cut -d, -f3-)" "142,21,142,21"
	expect_eq "$(grep '^2,' $csv | cut -d, -f3-)" "128,40,128,31"
	# gc-l1's kernel 1: 201 requests (180 loads, 21 stores), 39 hits; every
	# request one sector, so 39 of 201 sectors hit too.
	expect_eq "$(head -1 "$csv")" "kernel,l1_sector_hit_rate,l2_read_sectors,l2_write_sectors,dram_reads,dram_writes"
	expect_eq "$(grep '^1,' $csv | cut -d, -f2)" 0.1940
	# The totals: the L2's sectors requested (14759 + 18014 = 32773) and
	# gc-l2's DRAM sectors; 57.43% of the L2 sectors hit.
	expect_eq "$(tail -1 $csv)" "total,,14759,18014,11497,4281"
	grep -q '^    "requested": 32773,$' s/l2.json
	expect_match "$output" "L2 sector hit rate over all kernels: 0.574253 "
	# The kernel with the most DRAM reads (11: 3816 of 4715 sectors).
	expect_eq "$(grep '^11,' $csv | cut -d, -f3-)" "4715,1694,3816,431"
}

@test "seed003-bfs: --help, and bad arguments are usage errors" {
	run_status 0 "$GC_ROOT/examples/seed003-bfs" -h
	expect_match "${lines[0]}" "seed003-bfs - the Rodinia BFS kernels through gc"
	run_status 2 "$GC_ROOT/examples/seed003-bfs" --bogus
	run_status 2 "$GC_ROOT/examples/seed003-bfs" -w
}
