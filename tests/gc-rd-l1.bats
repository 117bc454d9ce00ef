#!/usr/bin/env bats
# gc-rd with gc-l1's rules (--scope l1, the default with a GPU): a stack
# per SM, emptied at each kernel start (l1.kernel_flush), only what the L1
# looks up, each kernel cut at its carve-out's L1; several --by keys.  The
# independent path is gc-l1 itself: a fully associative LRU cache of n
# lines misses exactly the references of distance >= n, so gc-rd's
# predicted hits equal gc-l1's lookups that find their line (hits and
# sector misses), on the shared BFS trace.

load helpers

BFS=$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g

# bfs: $B/acc.gcs (scheduled) and $B/bfs.gcs (coalesced), made once for
# the tests of this file.
B=$BATS_FILE_TMPDIR
bfs() {
	[ -s "$B/bfs.gcs" ] && return 0
	gc-import "$BFS" | gc-sched --gpu volta-v100 >"$B/acc.gcs" &&
		gc-coalesce "$B/acc.gcs" >"$B/bfs.gcs" && [ -s "$B/bfs.gcs" ] ||
		{ rm -f "$B/bfs.gcs"; return 1; }
}

# jv KEY FILE: a value at one level of a gc_json object (KEY with its
# indentation, e.g. '    "lru_hits"'); the first one.
jv() {
	# (bash alone, no process: as sed -n "s/^KEY: \(.*\)/\1/p" |
	# sed 's/,$//; s/^"\(.*\)"$/\1/' | head -1 on the whole file read once)
	local s v p=$'\n'"$1: "
	IFS= read -r -d '' s <"$2" || :
	s=$'\n'$s
	[[ $s == *"$p"* ]] || return 0
	s=${s#*"$p"}
	v=${s%%$'\n'*}
	v=${v%,}
	[[ $v == \"*\" ]] && { v=${v#\"}; v=${v%\"}; }
	printf '%s\n' "$v"
}

# present FILE: gc-l1's lookups that found their line (hits + sector
# misses) in its --stats FILE.
present() {
	echo $(($(jv '  "hits"' "$1") + $(jv '  "sector_misses"' "$1")))
}

@test "gc-rd l1: the BFS trace: the V100's rules from the stream's header" {
	bfs
	gc-rd --json "$B/bfs.gcs" >"$T/j"
	expect_eq "$(jv '  "scope"' "$T/j")" l1
	expect_eq "$(jv '  "stacks"' "$T/j")" sm
	expect_eq "$(jv '  "kernel_boundary"' "$T/j")" flush
	# the carve-out's 128 KB (no shared memory): 1024 lines, 4 sets of 256
	expect_eq "$(jv '    "lines"' "$T/j")" 1024 lines
	expect_eq "$(jv '    "ways"' "$T/j")" 256 ways
	expect_eq "$(jv '    "from"' "$T/j")" gpu
	expect_eq "$(grep -c '"l1_size": 131072,' "$T/j")" 16 "every kernel's L1"
	# gc-l1 says the same of each kernel
	gc-l1 --stats "$T/l1.json" "$B/bfs.gcs" >/dev/null
	expect_eq "$(grep -c '"l1_size": 131072,' "$T/l1.json")" 16 "gc-l1's kernels"
	# the report says so
	gc-rd "$B/bfs.gcs" >"$T/rep"
	grep -q '^scope             the L1 of volta-v100: what it looks up, a stack per SM, emptied at each kernel start$' "$T/rep"
	grep -q "^cache             1024 lines, 256 ways (the L1 of 128 KB, the carve-out's): distance >= 1024 misses$" "$T/rep"
	# --gpu names it; --scope stream: one stack over every reference
	gc-rd --gpu volta-v100 --json "$B/bfs.gcs" | grep -v '"input"' >"$T/g"
	expect_same <(grep -v '"input"' "$T/j") "$T/g" "--gpu volta-v100"
	gc-rd --scope stream --json "$B/bfs.gcs" >"$T/s"
	expect_eq "$(jv '  "stacks"' "$T/s")" one
	expect_eq "$(jv '  "kernel_boundary"' "$T/s")" keep
}

@test "gc-rd l1: predicted hits equal gc-l1's with a fully associative LRU L1 (line granularity)" {
	bfs
	# the carve-out's size: 1024 lines, gc-l1 --sets 1 --ways 1024
	gc-rd --json "$B/bfs.gcs" >"$T/j"
	gc-l1 --sets 1 --ways 1024 --stats "$T/fa.json" "$B/bfs.gcs" >/dev/null
	expect_eq "$(jv '    "lru_hits"' "$T/j")" "$(present "$T/fa.json")" "1024 lines"
	expect_eq "$(jv '    "lru_hits"' "$T/j")" 60801 "1024 lines, the number"
	expect_eq "$(jv '    "capacity"' "$T/j")" 0 "no capacity miss at 128 KB"
	# smaller caches, where capacity counts
	for n in 1 8 32 100 256; do
		gc-rd --lines "$n" --json "$B/bfs.gcs" >"$T/j"
		gc-l1 --sets 1 --ways "$n" --stats "$T/fa.json" "$B/bfs.gcs" >/dev/null
		expect_eq "$(jv '    "lru_hits"' "$T/j")" "$(present "$T/fa.json")" "$n lines"
	done
	# the set-associative L1 itself: gc-rd --sets 4 (linear index, like the
	# preset's) against gc-l1's default V100 L1, and smaller ones
	gc-rd --sets 4 --json "$B/bfs.gcs" >"$T/j"
	gc-l1 --stats "$T/l1.json" "$B/bfs.gcs" >/dev/null
	expect_eq "$(jv '    "lru_hits"' "$T/j")" "$(present "$T/l1.json")" "the V100 L1"
	expect_eq "$(jv '    "cut_off"' "$T/j")" 256 "per-set cut-off"
	expect_eq "$(jv '    "sdcm_hit_rate"' "$T/j")" null "no SDCM on per-set distances"
	for w in 2 8 64; do
		gc-rd --sets 4 --lines $((4 * w)) --json "$B/bfs.gcs" >"$T/j"
		gc-l1 --sets 4 --ways "$w" --stats "$T/l1.json" "$B/bfs.gcs" >/dev/null
		expect_eq "$(jv '    "lru_hits"' "$T/j")" "$(present "$T/l1.json")" "4 sets of $w ways"
	done
	# kept across kernels: the same with gc-l1 --kernel-boundary keep
	gc-rd --kernel-boundary keep --lines 64 --json "$B/bfs.gcs" >"$T/j"
	gc-l1 --kernel-boundary keep --sets 1 --ways 64 --stats "$T/fa.json" "$B/bfs.gcs" >/dev/null
	expect_eq "$(jv '    "lru_hits"' "$T/j")" "$(present "$T/fa.json")" "keep"
	gc-rd --lines 64 --json "$B/bfs.gcs" >"$T/f"
	[ "$(jv '    "lru_hits"' "$T/j")" -gt "$(jv '    "lru_hits"' "$T/f")" ]
}

@test "gc-rd l1: sector granularity: what equals gc-l1 and what does not" {
	bfs
	gc-rd --gran sector --json "$B/bfs.gcs" >"$T/j"
	gc-l1 --stats "$T/l1.json" "$B/bfs.gcs" >/dev/null
	# a reference per masked sector: gc-l1's requested sectors
	expect_eq "$(jv '  "references"' "$T/j")" "$(jv '    "requested"' "$T/l1.json")" "sectors"
	expect_eq "$(jv '  "references"' "$T/j")" 90629 "sectors, the number"
	# the cut-off: 128 KB of 32-byte sectors
	expect_eq "$(jv '    "lines"' "$T/j")" 4096 "sectors of the L1"
	# a fully associative cache of 32-byte lines: the accesses coalesced
	# into 32-byte lines, the V100 with 32-byte lines
	sed 's/^l1.cache = S:4:128:64,/l1.cache = N:4:32:256,/; s/^name = volta-v100/name = v100-32/' \
		"$GC_ROOT/share/gpus/volta-v100.gpu" >"$T/v32.gpu"
	gc-coalesce --gpu "$T/v32.gpu" "$B/acc.gcs" >"$T/b32.gcs"
	gc-l1 --sets 1 --ways 4096 --stats "$T/fa.json" "$T/b32.gcs" >/dev/null
	expect_eq "$(jv '  "requests"' "$T/fa.json")" 90629 "32-byte requests"
	# no capacity miss at 4096 sectors: equal
	expect_eq "$(jv '    "lru_hits"' "$T/j")" "$(present "$T/fa.json")" "4096 sectors"
	expect_eq "$(jv '    "lru_hits"' "$T/j")" 67285 "4096 sectors, the number"
	# not equal: gc-l1's load hits need valid data; a partial store
	# allocates its sector without fetching it (lazy-fetch-on-read), a
	# load's partial-write miss later, while gc-rd counts the sector as
	# present (a store to it hits: 7630 when stores missed it too)
	expect_eq "$(($(jv '    "lru_hits"' "$T/j") - $(jv '  "hits"' "$T/fa.json")))" \
		"$(jv '    "partial_write"' "$T/fa.json")" "the difference: partial writes"
	expect_eq "$(jv '    "partial_write"' "$T/fa.json")" 44 "partial writes"
	# nor the sectored 128-byte L1's sector hits in general (a line's tag
	# holds its 4 sectors); at 128 KB nothing is evicted, so they agree
	expect_eq "$(jv '    "hits"' "$T/l1.json")" "$(jv '  "hits"' "$T/fa.json")" "sector hits at 128 KB"
	# smaller caches: the order of one instruction's sectors differs
	# between a 128-byte request's mask (ascending) and the 32-byte
	# coalescer's requests, so the equality is with the 32-byte stream
	for n in 4 16 64; do
		gc-rd --lines "$n" --json "$T/b32.gcs" >"$T/j32"
		gc-l1 --sets 1 --ways "$n" --stats "$T/fa.json" "$T/b32.gcs" >/dev/null
		expect_eq "$(jv '    "lru_hits"' "$T/j32")" "$(present "$T/fa.json")" "$n sectors"
	done
}

@test "gc-rd l1: --by sm --by kernel: a row per (SM, launch), each equal to gc-l1's" {
	bfs
	# gc-l1 --emit all: each request's outcome, counted per (sm, kernel)
	gc-l1 --emit all --sets 1 --ways 32 "$B/bfs.gcs" | gc-stats --dump |
		awk -F, '!/^#/ && $2 ~ /^[0-9]+$/ && $8 != "kbegin" && $8 != "kend" {
			k = $2 "," $1; n[k]++; if ($14 == "hit" || $14 ~ /^sector-miss/) h[k]++ }
			END { for (k in n) print k "," n[k] "," h[k] + 0 }' | sort -t, -k1,1n -k2,2n >"$T/l1"
	expect_eq "$(wc -l <"$T/l1")" 128 "(sm, kernel) pairs"
	for by in "--by sm --by kernel" "--by sm,kernel"; do
		# shellcheck disable=SC2086
		gc-rd $by --lines 32 --csv "$B/bfs.gcs" >"$T/rd.csv"
		expect_eq "$(head -1 "$T/rd.csv")" \
			"sm,launch,kernel,references,compulsory,median,p90,lru_hits,lru_hit_rate,sdcm_hit_rate"
		awk -F, 'NR > 1 { print $1 "," $3 "," $4 "," $8 }' "$T/rd.csv" |
			sort -t, -k1,1n -k2,2n >"$T/rd"
		expect_same "$T/rd" "$T/l1" "$by"
	done
	# the keys in the order given; kernel and pc: launch, kernel, pc
	expect_eq "$(gc-rd --by kernel --by sm --csv "$B/bfs.gcs" | head -1 | cut -d, -f1-3)" "launch,kernel,sm"
	expect_eq "$(gc-rd --by kernel,pc --csv "$B/bfs.gcs" | head -1 | cut -d, -f1-4)" "launch,kernel,pc,references"
	expect_eq "$(gc-rd --by pc --by sm --csv "$B/bfs.gcs" | head -1 | cut -d, -f1-4)" "kernel,pc,sm,references"
	# the rows of every combination add up to every reference
	for by in sm,kernel,pc pc,sm kernel; do
		expect_eq "$(gc-rd --by $by --csv "$B/bfs.gcs" | awk -F, -v by=$by 'NR == 1 {
			for (i = 1; i <= NF; i++) if ($i == "references") c = i }
			NR > 1 { s += $c } END { print s }')" 69908 "$by"
	done
	# JSON: "by" a list, each row its keys
	gc-rd --by sm,kernel --json "$B/bfs.gcs" >"$T/j"
	expect_eq "$(sed -n '/^  "by"/,/]/p' "$T/j" | tr -d ' \n')" '"by":["sm","kernel"],'
	grep -q '^      "sm": 0,$' "$T/j"
	grep -q '^      "launch": 1,$' "$T/j"
}

# twok OUT SHMEM2: requests on SM 0: kernel 1 (no shared memory) and
# kernel 2 (SHMEM2 bytes of it a block) each go twice round 600 lines.
twok() {
	{
		printf '# gc-stats dump 1\n# kind requests\n# version 1.0\n# record_size 32\n'
		printf '# required 0x0\n# optional 0x0\n# header provenance=test\n'
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		awk -v s2="$2" 'BEGIN {
			n = 0
			for (k = 1; k <= 2; k++) {
				printf "%d,,,,,,,kbegin,,,,,,,,\"k%d\",grid=1x1x1 block=32x1x1 regs=0 shmem=%d\n", k, k, k == 1 ? 0 : s2
				for (p = 0; p < 2; p++)
					for (l = 0; l < 600; l++)
						printf "%d,0,0,0,,0x10,%d,load,global,0x%x,128,0xf,0,,0,,\n", k, p * 600 + l, 268435456 + l * 128
				printf "%d,,,,,,,kend,,,,,,,,,records=1200\n", k
			}
			printf ",,,,,,,end,,,,,,,,,records=2406 data=2400\n"
		}'
	} >"$T/$1.csv"
	gc-import "$T/$1.csv" >"$T/$1.gcs"
}

@test "gc-rd l1: each kernel is cut at its own carve-out (hand count, and gc-l1)" {
	twok k 65536
	gc-rd --gpu volta-v100 --json "$T/k.gcs" >"$T/j"
	# kernel 1: 128 KB, 1024 lines: the second round (distance 599) hits;
	# kernel 2: 64 KB of shared memory leaves 64 KB, 512 lines: it misses
	expect_eq "$(jv '    "lru_hits"' "$T/j")" 600 "hits"
	expect_eq "$(jv '    "capacity"' "$T/j")" 600 "capacity misses"
	expect_eq "$(grep -c '"l1_size": 131072,' "$T/j")" 1 "kernel 1's L1"
	expect_eq "$(grep -c '"l1_size": 65536,' "$T/j")" 1 "kernel 2's L1"
	expect_eq "$(sed -n '/"cut_offs"/,/]/p' "$T/j" | grep -c '"lines"')" 2 "two cut-offs"
	# gc-l1 (the V100's 4-set L1) and gc-rd --sets 4 agree
	gc-l1 --gpu volta-v100 --stats "$T/l1.json" "$T/k.gcs" >/dev/null
	gc-rd --gpu volta-v100 --sets 4 --json "$T/k.gcs" >"$T/j4"
	expect_eq "$(jv '    "lru_hits"' "$T/j4")" "$(present "$T/l1.json")" "4 sets"
	expect_eq "$(jv '    "lru_hits"' "$T/j4")" 600 "4 sets, hand count"
	# one carve-out for both: every second round hits
	twok same 0
	gc-rd --gpu volta-v100 --json "$T/same.gcs" >"$T/j"
	expect_eq "$(jv '    "lru_hits"' "$T/j")" 1200 "one carve-out"
	[ -z "$(grep '"cut_offs"' "$T/j")" ]
	# --lines: the same cut for every kernel
	gc-rd --gpu volta-v100 --lines 1024 --json "$T/k.gcs" >"$T/j"
	expect_eq "$(jv '    "lru_hits"' "$T/j")" 1200 "--lines 1024"
	expect_eq "$(jv '    "from"' "$T/j")" options
}

@test "gc-rd l1: what the L1 does not look up has no distance; --scope stream counts it" {
	{
		printf '# gc-stats dump 1\n# kind requests\n# version 1.0\n# record_size 32\n'
		printf '# required 0x0\n# optional 0x0\n# header provenance=test\n'
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		echo '1,,,,,,,kbegin,,,,,,,,"",grid=1x1x1 block=32x1x1 regs=0 shmem=0'
		echo '1,0,0,0,,0x10,0,load,global,0x1000,128,0xf,0,,0,,'
		echo '1,0,0,0,,0x20,1,load,shared,0x1000,128,0xf,0,,0,,'
		echo '1,0,0,0,,0x30,2,atomic,global,0x1000,4,0x1,0,,0,,'
		echo '1,0,0,0,,0x40,3,load,global,0x1000,128,0xf,0,,0,,'
		echo '1,,,,,,,kend,,,,,,,,,records=4'
		echo ',,,,,,,end,,,,,,,,,records=6 data=4'
	} >"$T/q.csv"
	gc-import "$T/q.csv" >"$T/q.gcs"
	gc-rd --gpu volta-v100 --json "$T/q.gcs" >"$T/j"
	expect_eq "$(jv '  "records"' "$T/j")" 4 records
	expect_eq "$(jv '  "shared"' "$T/j")" 1 shared
	expect_eq "$(jv '  "bypassed"' "$T/j")" 1 bypassed
	expect_eq "$(jv '  "references"' "$T/j")" 2 references
	# annotated: no distance (2^64-2) for those two; the load's reuse is 0
	gc-rd --gpu volta-v100 --annotate "$T/q.gcs" | gc-stats --dump | grep -o 'dist=[0-9a-z]*' >"$T/d"
	expect_eq "$(tr '\n' ' ' <"$T/d")" "dist=inf dist=none dist=none dist=0 "
	gc-rd --gpu volta-v100 --scope stream --json "$T/q.gcs" >"$T/s"
	expect_eq "$(jv '  "references"' "$T/s")" 4 "stream: references"
}

@test "gc-rd l1: usage errors" {
	bfs
	for bad in "--scope l2|--scope: 'l2' is not l1 or stream" \
		"--kernel-boundary warm|--kernel-boundary: 'warm' is not flush or keep" \
		"--by sm,warp|--by: 'warp' is not sm, kernel or pc" \
		"--lines 2 --sets 4|--lines 2 --sets 4: fewer lines than sets"; do
		sh_status 2 "gc-rd ${bad%%|*} '$B/bfs.gcs'"
		expect_eq "$(head -1 "$T/err")" "gc-rd: ${bad#*|}"
		[ ! -s "$T/out" ]
	done
	# past the L1: gc-l1's output to L2 is the stream's scope by default
	gc-l1 "$B/bfs.gcs" >"$T/l2.gcs"
	sh_status 2 "gc-rd --scope l1 '$T/l2.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-rd: --scope l1: $T/l2.gcs: the input is gc-l1's output to L2, past the L1"
	gc-rd --json "$T/l2.gcs" >"$T/j"
	expect_eq "$(jv '  "scope"' "$T/j")" stream
}
