#!/usr/bin/env bats
# gc-rd: reuse distances, histograms, miss-ratio curves, SDCM, sampling,
# annotation.  Exact values come from the seeds' tables, from hand
# computation, or from independent paths: rd-naive (tests/src), a
# move-to-front stack written apart from lib/model/rd.c, and gc-l1.

load helpers

# mkacc OUT ADDR...: an access stream, one kernel, one lane, 1-byte loads
# at the given addresses (PC 0x10, SM 0).
mkacc() {
	local out=$1 n i=0 a
	shift
	n=$#
	{
		printf '# gc-stats dump 1\n# kind accesses\n# version 1.0\n# record_size 32\n'
		printf '# required 0x0\n# optional 0x0\n# header provenance=test\n'
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		echo '1,,,,,,,kbegin,,,,,,,,"",grid=1x1x1 block=1x1x1 regs=0 shmem=0'
		for a in "$@"; do
			echo "1,0,0,0,0,0x10,$i,load,global,$a,1,,0,,0,,"
			i=$((i + 1))
		done
		echo "1,,,,,,,kend,,,,,,,,,records=$n"
		echo ",,,,,,,end,,,,,,,,,records=$((n + 2)) data=$n"
	} >"$T/$out.csv"
	gc-import "$T/$out.csv" >"$T/$out.gcs"
}

# mkreq OUT N SEED LINES: a request stream of N full-line loads (mask 0xf,
# 128-byte lines) on one SM, half of them reuses of the last 40, the rest
# uniform over LINES lines.
mkreq() {
	{
		printf '# gc-stats dump 1\n# kind requests\n# version 1.0\n# record_size 32\n'
		printf '# required 0x0\n# optional 0x0\n# header provenance=test\n'
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		echo '1,,,,,,,kbegin,,,,,,,,"",grid=1x1x1 block=32x1x1 regs=0 shmem=0'
		awk -v n="$2" -v seed="$3" -v m="$4" 'BEGIN {
			srand(seed)
			for (i = 0; i < n; i++) {
				if (rand() < 0.5 && i > 0) l = prev[int(rand() * (i < 40 ? i : 40))]
				else l = int(rand() * m)
				for (j = 39; j > 0; j--) prev[j] = prev[j - 1]
				prev[0] = l
				printf "1,0,0,0,,0x10,%d,load,global,0x%x,128,0xf,0,,0,,\n", i, 268435456 + l * 128
			}
			printf "1,,,,,,,kend,,,,,,,,,records=%d\n,,,,,,,end,,,,,,,,,records=%d data=%d\n", n, n + 2, n
		}'
	} >"$T/$1.csv"
	gc-import "$T/$1.csv" >"$T/$1.gcs"
}

# dists FILE: the distance field of every data record of an annotated
# stream, one a line ("inf" for all ones, "none" for GC_RD_NONE).
dists() {
	local hs rs
	hs=$(od -An -tu4 -j12 -N4 "$1" | tr -d ' ')
	rs=$(od -An -tu2 -j18 -N2 "$1" | tr -d ' ')
	od -An -v -tu1 -w"$rs" -j "$hs" "$1" | awk '$1 >= 1 && $1 <= 3 {
		inf = 1
		for (i = 33; i <= 40; i++) if ($i != 255) inf = 0
		if (inf) { print "inf"; next }
		if ($33 == 254 && inf == 0) {
			none = 1
			for (i = 34; i <= 40; i++) if ($i != 255) none = 0
			if (none) { print "none"; next }
		}
		v = 0
		for (i = 40; i >= 33; i--) v = v * 256 + $i
		print v
	}'
}

# hist FILE [OPTION...]: the histogram of gc-rd --csv as "lo:count" words.
hist() {
	local f=$1
	shift
	gc-rd --csv "$@" "$f" | awk -F, 'NR > 1 { printf "%s%s:%s", (NR > 2 ? " " : ""), $1, $3 }'
}

# close A B [TOL]: |A - B| <= TOL (default 1e-12, relative to max(1, |B|)).
close() {
	expect_num "$1" "value"
	expect_num "$2" "expected value"
	awk -v a="$1" -v b="$2" -v t="${3:-1e-12}" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		m = b < 0 ? -b : b; if (m < 1) m = 1
		exit !(d <= t * m)
	}' || { echo "got $1, expected $2 (tolerance ${3:-1e-12})" >&2; return 1; }
}

@test "gc-rd: the mandatory command-line cases" {
	common_cli_cases gc-rd --sets
}

@test "gc-rd: --help and the manual list the same options" {
	help_matches_man gc-rd
}

@test "gc-rd: seed 000 Table 1, address granularity: inf inf inf inf 1 0 2" {
	mkacc t1 0 5 3 9 3 3 5
	gc-rd --gran byte --annotate "$T/t1.gcs" >"$T/a.gcs"
	expect_eq "$(dists "$T/a.gcs" | tr '\n' ' ')" "inf inf inf inf 1 0 2 "
	expect_eq "$(hist "$T/t1.gcs" --gran byte)" "0:1 1:1 2:1 inf:4"
}

@test "gc-rd: seed 000 Table 1 and Fig. 1, line granularity (4-element lines)" {
	mkacc t1 0 5 3 9 3 3 5
	gc-rd --line 4 --annotate "$T/t1.gcs" >"$T/a.gcs"
	# lines 0 1 0 2 0 0 1
	expect_eq "$(dists "$T/a.gcs" | tr '\n' ' ')" "inf inf 1 inf 1 0 2 "
	# Fig. 1: the histogram
	expect_eq "$(hist "$T/t1.gcs" --line 4)" "0:1 1:2 2:1 inf:3"
	# a cache of 2 lines: 3 compulsory misses (42%), 1 capacity miss (14%)
	gc-rd --line 4 --lines 2 --json "$T/t1.gcs" >"$T/j"
	grep -q '"compulsory": 3,' "$T/j"
	grep -q '"capacity": 1,' "$T/j"
	grep -q '"lru_hits": 3,' "$T/j"
	sh_status 0 "gc-rd --line 4 --lines 2 <'$T/t1.gcs'"
	golden gc-rd-table1.txt "$T/out"
}

@test "gc-rd: seed 003 Table 1 (2-byte lines): inf inf inf 2 0 1" {
	mkacc t3 2 4 6 2 3 6
	gc-rd --line 2 --annotate "$T/t3.gcs" >"$T/a.gcs"
	expect_eq "$(dists "$T/a.gcs" | tr '\n' ' ')" "inf inf inf 2 0 1 "
}

@test "gc-rd: random streams equal the naive O(N*M) stack, record by record" {
	rd-gen -n 20000 -m 2000 -x -k 3 -s 5 >"$T/r.gcs"
	for o in "" "--gran sector|-g sector" "--gran byte|-g byte" "--line 64|-l 64" \
		"--sets 16|-S 16" "--sets 32 --index xor|-S 32 -H X" "--sets 64 --index ipoly|-S 64 -H P" \
		"--sets 32 --index fermi|-S 32 -H H" "--by sm|-b sm" "--by kernel|-b kernel" \
		"--by sm --sets 8 --index X|-b sm -S 8 -H X" "--by pc|"; do
		mine=${o%%|*}
		theirs=${o#*|}
		[ "$o" = "" ] && theirs=
		# shellcheck disable=SC2086 # word splitting of the option lists
		gc-rd --annotate $mine "$T/r.gcs" | rd-naive $theirs >"$T/naive" 2>"$T/err" ||
			{ cat "$T/err" >&2; echo "options: $mine" >&2; return 1; }
		expect_eq "$(cat "$T/err")" "records 20000, mismatches 0" "$mine"
		case $mine in --by*) continue ;; esac
		# shellcheck disable=SC2086
		gc-rd --csv --exact 1G $mine "$T/r.gcs" | tail -n +2 | cut -d, -f1,3 >"$T/mine"
		diff "$T/naive" "$T/mine" >&2
	done
}

@test "gc-rd: many distinct lines and a long stream (compaction, table growth) equal the naive stack" {
	rd-gen -n 300000 -m 60000 -p 60 -s 9 | gc-rd --annotate >"$T/a.gcs"
	rd-naive <"$T/a.gcs" >/dev/null 2>"$T/err"
	expect_eq "$(cat "$T/err")" "records 300000, mismatches 0"
}

@test "gc-rd: request streams: a line per request, or a reference per masked sector" {
	{
		printf '# gc-stats dump 1\n# kind requests\n# version 1.0\n# record_size 32\n'
		printf '# required 0x0\n# optional 0x0\n# header provenance=test\n'
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		echo '1,,,,,,,kbegin,,,,,,,,"",grid=1x1x1 block=32x1x1 regs=0 shmem=0'
		echo '1,0,0,0,,0x10,0,load,global,0x1000,64,0x3,0,,0,,'
		echo '1,0,0,0,,0x10,1,load,global,0x2000,32,0x1,0,,0,,'
		echo '1,0,0,0,,0x10,2,load,global,0x1000,32,0x2,0,,0,,'
		echo '1,0,0,0,,0x10,3,load,global,0x1000,128,0xf,0,,0,,'
		echo '1,,,,,,,kend,,,,,,,,,records=4'
		echo ',,,,,,,end,,,,,,,,,records=6 data=4'
	} >"$T/q.csv"
	gc-import "$T/q.csv" >"$T/q.gcs"
	# lines 0x1000 0x2000 0x1000 0x1000
	gc-rd --annotate "$T/q.gcs" >"$T/a.gcs"
	expect_eq "$(dists "$T/a.gcs" | tr '\n' ' ')" "inf inf 1 0 "
	expect_eq "$(hist "$T/q.gcs")" "0:1 1:1 inf:2"
	# sectors: (0x1000 0x1020) (0x2000) (0x1020) (0x1000 0x1020 0x1040 0x1060):
	# inf inf | inf | 1 | 2 1 inf inf; a record takes its largest
	gc-rd --gran sector --annotate "$T/q.gcs" >"$T/a.gcs"
	expect_eq "$(dists "$T/a.gcs" | tr '\n' ' ')" "inf inf 1 inf "
	expect_eq "$(hist "$T/q.gcs" --gran sector)" "1:2 2:1 inf:5"
}

@test "gc-rd: --prefetches count or exclude a cache's prefetches (flag 0x2), by hand" {
	# lines 0x0, 0x80 (a prefetch), 0x100, 0x80, 0x0, one stack (scope
	# stream).  count: inf inf inf, then 0x80 past {0x100}: 1, 0x0 past
	# {0x80, 0x100}: 2.  exclude: the prefetch is no reference (no
	# distance: "none" in dists), so 0x80 is first used at record 3
	# (inf) and 0x0 is past {0x100, 0x80}: still 2; 4 references.
	{
		printf '# gc-stats dump 1\n# kind requests\n# version 1.3\n# record_size 32\n'
		printf '# required 0x0\n# optional 0x10\n# header provenance=test\n'
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		echo '1,,,,,,,kbegin,,,,,,,,"",grid=1x1x1 block=32x1x1 regs=0 shmem=0'
		echo '1,0,0,0,,0x10,0,load,global,0x0,128,0xf,0,,0,,'
		echo '1,0,0,0,,0x10,1,load,global,0x80,128,0xf,0,,2,,'
		echo '1,0,0,0,,0x10,2,load,global,0x100,128,0xf,0,,0,,'
		echo '1,0,0,0,,0x10,3,load,global,0x80,128,0xf,0,,0,,'
		echo '1,0,0,0,,0x10,4,load,global,0x0,128,0xf,0,,0,,'
		echo '1,,,,,,,kend,,,,,,,,,records=5'
		echo ',,,,,,,end,,,,,,,,,records=7 data=5'
	} >"$T/p.csv"
	gc-import "$T/p.csv" >"$T/p.gcs"
	gc-rd --scope stream --annotate --stats "$T/c.json" "$T/p.gcs" >"$T/c.gcs"
	expect_eq "$(dists "$T/c.gcs" | tr '\n' ' ')" "inf inf inf 1 2 "
	expect_eq "$(jv prefetches "$T/c.json") $(jv prefetch_rule "$T/c.json") $(jv references "$T/c.json")" "1 count 5"
	gc-rd --scope stream --prefetches exclude --annotate --stats "$T/e.json" "$T/p.gcs" >"$T/e.gcs"
	expect_eq "$(dists "$T/e.gcs" | tr '\n' ' ')" "inf none inf inf 2 "
	expect_eq "$(jv prefetches "$T/e.json") $(jv prefetch_rule "$T/e.json") $(jv references "$T/e.json") $(jv compulsory "$T/e.json")" "1 exclude 4 3"
}

@test "gc-rd: an access across a line boundary is a reference to each line" {
	{
		printf '# gc-stats dump 1\n# kind accesses\n# version 1.0\n# record_size 32\n'
		printf '# required 0x0\n# optional 0x0\n# header provenance=test\n'
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		echo '1,,,,,,,kbegin,,,,,,,,"",grid=1x1x1 block=1x1x1 regs=0 shmem=0'
		echo '1,0,0,0,0,0x10,0,load,global,0x107e,4,,0,,0,,'
		echo '1,0,0,0,0,0x10,1,load,global,0x1000,4,,0,,0,,'
		echo '1,,,,,,,kend,,,,,,,,,records=2'
		echo ',,,,,,,end,,,,,,,,,records=4 data=2'
	} >"$T/s.csv"
	gc-import "$T/s.csv" >"$T/s.gcs"
	gc-rd --json "$T/s.gcs" >"$T/j"
	expect_eq "$(jv records "$T/j")" 2 records
	expect_eq "$(jv references "$T/j")" 3 references
	# lines 0x20 0x21 | 0x20: distance 1
	expect_eq "$(hist "$T/s.gcs")" "1:1 inf:2"
}

@test "gc-rd: SDCM P(h|D) for hand-computed (D, A, B)" {
	# D < A: 1 (the whole binomial expansion)
	expect_eq "$(rd-sdcm 0 1 4)" 1
	expect_eq "$(rd-sdcm 3 4 8)" 1
	# (1/2)^2
	close "$(rd-sdcm 2 1 2)" 0.25
	# (1/2)^3 + 3 (1/2)(1/2)^2 = 1/2
	close "$(rd-sdcm 3 2 4)" 0.5
	# (3/4)^4 + 4 (1/4)(3/4)^3 = 189/256
	close "$(rd-sdcm 4 2 8)" 0.73828125
	# (3/4)^5 = 243/1024
	close "$(rd-sdcm 5 1 4)" 0.2373046875
	# 3^18 (9 + 60 + 190) / 4^20
	close "$(rd-sdcm 20 3 12)" "$(awk 'BEGIN { printf "%.17g", 387420489 * 259 / 1099511627776 }')"
	# fully associative: a step at A
	expect_eq "$(rd-sdcm 10 4 4)" 0
	expect_eq "$(rd-sdcm 3 4 4)" 1
	expect_eq "$(rd-sdcm inf 2 8)" 0
	# far beyond the cache: 0, not a normal approximation's hit
	expect_eq "$(rd-sdcm 1000000 4 64)" 0
}

@test "gc-rd: the SDCM hit rate of a stream is formula 2 over its histogram" {
	# a b c d e a: one reuse at distance 4, five first uses
	mkacc s 0 128 256 384 512 0
	gc-rd --lines 8 --ways 2 --json "$T/s.gcs" >"$T/j"
	v=$(sed -n 's/^    "sdcm_hit_rate": \(.*\)$/\1/p' "$T/j")
	# JSON numbers have 6 significant digits
	close "$v" "$(awk 'BEGIN { printf "%.17g", 189 / 256 / 6 }')" 1e-5
	grep -q '"lru_hits": 1,' "$T/j"
}

@test "gc-rd: a cyclic stream larger than the cache: SDCM hit rate near 0" {
	# 256 lines in a loop, 20 times; a 4-way cache of 64 lines
	rd-gen -c -n 5120 -m 256 >"$T/c.gcs"
	gc-rd --lines 64 --ways 4 --json "$T/c.gcs" >"$T/j"
	grep -q '"lru_hits": 0,' "$T/j"
	v=$(sed -n 's/^    "sdcm_hit_rate": \(.*\)$/\1/p' "$T/j")
	expect_num "$v" sdcm_hit_rate
	awk -v v="$v" 'BEGIN { exit !(v >= 0 && v < 0.001) }' || { echo "sdcm $v" >&2; return 1; }
	# every reuse is at distance 255
	expect_eq "$(hist "$T/c.gcs" --exact 1K)" "255:4864 inf:256"
}

@test "gc-rd: every fully associative size of the miss-ratio curve equals gc-l1 with one set" {
	command -v gc-l1 >/dev/null || skip "gc-l1 is not built"
	mkreq q 3000 5 300
	gc-rd --mrc "$T/q.gcs" >"$T/mrc"
	last=$(tail -n 1 "$T/mrc")
	for n in 1 2 3 4 7 16 33 100 200 295 296 400; do
		m=$(awk -F, -v n="$n" '$1 == n { print $2 }' "$T/mrc")
		[ -n "$m" ] || m=$(echo "$last" | cut -d, -f2) # beyond: the compulsory misses
		h=$(gc-l1 --emit all --sets 1 --ways "$n" --line 128 --sector 32 --index linear \
			--replacement lru --skip-global no "$T/q.gcs" | gc-stats --json |
			sed -n 's/^  "hits": \([0-9]*\),/\1/p')
		expect_num "$h" "gc-l1 hits at $n ways"
		expect_num "$m" "gc-rd misses at $n ways"
		expect_eq "$((h + m))" 3000 "gc-l1 hits + gc-rd misses at $n ways"
	done
}

@test "gc-rd: --mrc lists every size, consistent with the histogram" {
	mkacc t1 0 5 3 9 3 3 5
	gc-rd --line 4 --mrc "$T/t1.gcs" >"$T/out"
	expect_eq "$(cat "$T/out" | tr '\n' ' ')" "lines,misses,miss_rate 1,6,0.857143 2,4,0.571429 3,3,0.428571 "
}

@test "gc-rd: the sampled mode is exact while the working set fits the sample" {
	rd-gen -n 20000 -m 2000 -k 2 -s 3 >"$T/r.gcs"
	gc-rd --csv "$T/r.gcs" >"$T/exact"
	gc-rd --csv --sample 4096 "$T/r.gcs" >"$T/sampled"
	cmp "$T/exact" "$T/sampled"
	gc-rd --json --sample 4096 "$T/r.gcs" >"$T/j"
	expect_eq "$(jv rate "$T/j")" 1 rate
}

@test "gc-rd: the sampled mode is within its documented error" {
	# the man page's rd-gen -p 20 stream: caches of 256 lines or more,
	# N = 8192: at most 0.0067; every size, N = 65536: exact (rate 1)
	rd-gen -n 2000000 -m 20000 -p 20 -s 12 >"$T/r.gcs"
	gc-rd --json "$T/r.gcs" >"$T/e"
	gc-rd --json --sample 8192 "$T/r.gcs" >"$T/s"
	for n in 256 512 1024 2048 4096 8192 16384 32768; do
		e=$(grep -A2 "\"lines\": $n,\$" "$T/e" | sed -n 's/.*"miss_rate": //p')
		s=$(grep -A2 "\"lines\": $n,\$" "$T/s" | sed -n 's/.*"miss_rate": //p')
		close "$s" "$e" 0.0067
	done
	r=$(jv rate "$T/s")
	expect_num "$r" rate
	awk -v r="$r" 'BEGIN { exit !(r < 0.5) }'
}

@test "gc-rd: --by kernel, sm and pc breakdowns add up" {
	rd-gen -n 6000 -m 500 -k 3 -S 4 -s 2 >"$T/r.gcs"
	for by in kernel sm pc; do
		gc-rd --by "$by" --csv "$T/r.gcs" >"$T/b"
		sum=$(awk -F, 'NR > 1 { s += $(NF - 3) } END { print s }' "$T/b")
		expect_eq "$sum" 6000 "$by references"
	done
	expect_eq "$(gc-rd --by kernel --csv "$T/r.gcs" | wc -l)" 4
	expect_eq "$(gc-rd --by sm --csv "$T/r.gcs" | wc -l)" 5
	# per kernel: the first kernel's first uses equal a global run's over it
	gc-rd --by kernel --csv "$T/r.gcs" | sed -n 2p | cut -d, -f1-4 >"$T/k1"
	expect_eq "$(cut -d, -f1,2 "$T/k1")" "1,1"
}

@test "gc-rd: --annotate: the distance flag, 40-byte records, minor version 1, gc-stats by pc" {
	rd-gen -n 3000 -m 200 -s 4 >"$T/r.gcs"
	gc-rd --annotate "$T/r.gcs" >"$T/a.gcs"
	expect_eq "$(od -An -tu2 -j10 -N2 "$T/a.gcs" | tr -d ' ')" 1 minor
	expect_eq "$(od -An -tu2 -j18 -N2 "$T/a.gcs" | tr -d ' ')" 40 "record size"
	expect_eq "$(od -An -tu4 -j24 -N4 "$T/a.gcs" | tr -d ' ')" 4 "optional flags"
	gc-stats -v "$T/a.gcs" >"$T/rep"
	grep -q '^flags             required 0x0, optional 0x4 (distance)$' "$T/rep"
	grep -q '^header            rd_gran=line$' "$T/rep"
	# the records are unchanged: the dumps agree but for the distance,
	# which the annotated dump carries in the info column
	expect_same <(gc-stats --dump "$T/r.gcs" | grep -v '^#') \
		<(gc-stats --dump "$T/a.gcs" | grep -v '^#' | sed 's/,dist=[0-9a-z]*$/,/')
	# gc-stats --by pc: first uses per PC add up to gc-rd's compulsory
	gc-stats --by pc "$T/a.gcs" | grep -A10 '^by pc' >"$T/pc"
	grep -q 'first-uses  mean-dist  median-dist' "$T/pc"
	# (first-uses, mean-dist, median-dist, then the one-word kernel name)
	cold=$(awk 'NR > 2 { s += $(NF - 3) } END { print s }' "$T/pc")
	expect_eq "$cold" "$(gc-rd --json "$T/r.gcs" | sed -n 's/^  "compulsory": \(.*\),/\1/p')"
	gc-stats --json --by pc "$T/a.gcs" | grep -q '"median_distance": '
	# a second gc-rd reads the annotated stream and writes the same distances
	gc-rd --annotate "$T/a.gcs" >"$T/b.gcs"
	expect_same <(dists "$T/a.gcs") <(dists "$T/b.gcs")
}

@test "gc-rd: an annotated stream goes on: gc-coalesce and gc-l2's DRAM output drop the distance, gc-l1 and gc-l2 --emit all keep it" {
	gc-gen -n 256 copy | gc-sched >"$T/s.gcs"
	gc-rd --annotate "$T/s.gcs" >"$T/sa.gcs"
	# accesses with distances -> requests without: flag 0x4 gone, 32 bytes,
	# the same requests as from the stream without distances
	gc-coalesce <"$T/sa.gcs" >"$T/q.gcs"
	expect_eq "$(od -An -tu2 -j18 -N2 "$T/q.gcs" | tr -d ' ') $(od -An -tu4 -j24 -N4 "$T/q.gcs" | tr -d ' ')" "32 1"
	gc-coalesce "$T/s.gcs" >"$T/q0.gcs"
	expect_same <(decode_stream "$T/q.gcs") <(decode_stream "$T/q0.gcs")
	# requests with distances: gc-l1 and gc-l2 --emit all keep them (40 bytes)
	gc-rd --annotate "$T/q.gcs" >"$T/qa.gcs"
	gc-l1 "$T/qa.gcs" >"$T/l.gcs"
	gc-l2 --emit all "$T/l.gcs" >"$T/la.gcs"
	expect_eq "$(od -An -tu2 -j18 -N2 "$T/la.gcs" | tr -d ' ') $(od -An -tu4 -j24 -N4 "$T/la.gcs" | tr -d ' ')" "40 7"
	expect_same <(dists "$T/l.gcs") <(dists "$T/la.gcs")
	# the DRAM transactions: 32 bytes, no distance, the same as without
	gc-l2 "$T/l.gcs" >"$T/d.gcs"
	expect_eq "$(od -An -tu2 -j18 -N2 "$T/d.gcs" | tr -d ' ') $(od -An -tu4 -j24 -N4 "$T/d.gcs" | tr -d ' ')" "32 3"
	gc-l1 "$T/q.gcs" | gc-l2 >"$T/d0.gcs"
	expect_same <(decode_stream "$T/d.gcs") <(decode_stream "$T/d0.gcs")
}

@test "gc-rd: a reader refuses the distance flag on 32-byte records" {
	mkacc t1 0 5
	# set optional bit 2 in place (offset 24)
	cp "$T/t1.gcs" "$T/bad.gcs"
	printf '\004' | dd of="$T/bad.gcs" bs=1 seek=24 conv=notrunc 2>/dev/null
	sh_status 1 "gc-stats '$T/bad.gcs'"
	expect_eq "$(cat "$T/err")" "gc-stats: $T/bad.gcs: the distance flag needs records of at least 40 bytes, not 32"
	[ ! -s "$T/out" ]
}

@test "gc-rd: --plot draws a well-formed SVG: bars, cut-off, axes, curve" {
	mkacc t1 0 5 3 9 3 3 5
	gc-rd --line 4 --lines 2 --plot "$T/p.svg" "$T/t1.gcs" >/dev/null
	if command -v xmllint >/dev/null; then
		xmllint --noout "$T/p.svg"
	fi
	head -c 5 "$T/p.svg" | grep -q '<?xml'
	tail -n 1 "$T/p.svg" | grep -qx '</svg>'
	# one bar per histogram row: 0, 1, 2, inf
	expect_eq "$(grep -c 'class="bar"' "$T/p.svg")" 4
	# hits blue, misses red (distance 2 >= 2 lines), infinity grey
	expect_eq "$(grep 'class="bar"' "$T/p.svg" | grep -c '#4c72b0')" 2
	expect_eq "$(grep 'class="bar"' "$T/p.svg" | grep -c '#c44e52')" 1
	expect_eq "$(grep 'class="bar"' "$T/p.svg" | grep -c '#7f7f7f')" 1
	expect_eq "$(grep -c 'class="cutoff"' "$T/p.svg")" 2
	grep -q '>reuse distance (distinct lines of 4 B in between)<' "$T/p.svg"
	grep -q '>fraction of references<' "$T/p.svg"
	grep -q '>cache size (lines of 4 B, log scale)<' "$T/p.svg"
	grep -q '>miss ratio<' "$T/p.svg"
	expect_eq "$(grep -c 'class="mrc"' "$T/p.svg")" 1
	grep -q '<title>distance 1: 2 references (28.57%)</title>' "$T/p.svg"
	# without a cache: no cut-off
	gc-rd --line 4 --plot "$T/q.svg" "$T/t1.gcs" >/dev/null
	expect_eq "$(grep -c 'class="cutoff"' "$T/q.svg")" 0
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/p.svg" "$T/q.svg"
}

@test "gc-rd: --plot's axes: y ticks at round steps, the unit named, the cut-off label clear of its line" {
	mkacc t1 0 5 3 9 3 3 5
	# distances in lines of 4 B: 0:1 1:2 2:1 inf:3 of 7; the tallest bar
	# 3/7 = 0.43: ticks every 0.05 (about 6 over the range) up to 0.45;
	# the miss ratio 0 to 1 every 0.2
	gc-rd --line 4 --lines 4 --plot "$T/p.svg" "$T/t1.gcs" >/dev/null
	expect_eq "$(grep -o 'class="tick-label">[^<]*' "$T/p.svg" | sed 's/.*>//' | tr '\n' ' ')" \
		"0 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.00 0.20 0.40 0.60 0.80 1.00 1 2 4 "
	# 4 lines is the curve's right end (830 px): its label ends 4 px left
	# of the line, above the panel (470 - 6)
	grep -q '<line x1="830.00" y1="470.00" x2="830.00" y2="730.00" [^>]*class="cutoff"/>' "$T/p.svg"
	grep -q '<text x="826.00" y="464.00" text-anchor="end" font-size="11.0" class="cutoff-label">4 lines: ' "$T/p.svg"
	gc-rd --gran sector --line 8 --sector 4 --plot "$T/s.svg" "$T/t1.gcs" >/dev/null
	grep -q '>reuse distance (distinct sectors of 4 B in between)<' "$T/s.svg"
	gc-rd --gran byte --plot "$T/b.svg" "$T/t1.gcs" >/dev/null
	grep -q '>cache size (bytes, log scale)<' "$T/b.svg"
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/p.svg" "$T/s.svg" "$T/b.svg"
}

@test "gc-rd: --plot of the README's BFS picture passes the geometry checks; sizes from 1024 up as 1Ki" {
	gc-import --gpu fermi-gtx470-16k "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" |
		gc-sched | gc-coalesce | gc-rd --gpu fermi-gtx470-16k --by sm --plot "$T/bfs.svg" >/dev/null
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/bfs.svg"
	# the cut-off at the L1's 128 lines, its label right of the line
	expect_eq "$(grep -c 'class="cutoff-label">cache of 128 lines: hits left, misses right<' "$T/bfs.svg")" 1
	# byte units of the same stream reach 2^17: the last ticks 64Ki, 128Ki
	gc-import "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" | gc-rd --gran byte --plot "$T/byte.svg" >/dev/null
	run_status 0 sh "$GC_ROOT/tests/svgcheck" "$T/byte.svg"
	grep -q 'class="tick-label">1Ki<' "$T/byte.svg"
}

@test "gc-rd: --gpu gives the line size and the L1" {
	mkacc t1 0 5 3 9 3 3 5
	gc-rd --gpu fermi-gtx470-16k --json "$T/t1.gcs" >"$T/j"
	expect_eq "$(jv unit_bytes "$T/j")" 128
	grep -q '"lines": 128,' "$T/j"
	grep -q '"ways": 4,' "$T/j"
}

@test "gc-rd: stdin, a file and - give the same report" {
	mkacc t1 0 5 3 9 3 3 5
	gc-rd "$T/t1.gcs" | tail -n +2 >"$T/a"
	gc-rd <"$T/t1.gcs" | tail -n +2 >"$T/b"
	gc-rd - <"$T/t1.gcs" >"$T/c"
	expect_eq "$(head -1 "$T/c")" "input             stdin"
	expect_same "$T/a" "$T/b" stdin
	expect_same <(tail -n +2 "$T/c") "$T/b" -
}

@test "gc-rd: gzip input gives the same output as plain" {
	rd-gen -n 2000 -m 100 >"$T/r.gcs"
	gzip -c "$T/r.gcs" >"$T/r.gcs.gz"
	expect_same <(gc-rd --json "$T/r.gcs" | grep -v '"input"') <(gc-rd --json "$T/r.gcs.gz" | grep -v '"input"')
	gc-rd --annotate -z "$T/r.gcs" | gzip -dc >"$T/a.gcs"
	gc-rd --annotate "$T/r.gcs.gz" >"$T/b.gcs"
	expect_same <(dists "$T/a.gcs") <(dists "$T/b.gcs")
	expect_eq "$(dists "$T/a.gcs" | wc -l)" 2000
}

@test "gc-rd: a full disk is an error (report, JSON, CSV, stream)" {
	mkacc t1 0 5 3
	for opt in "" --json --csv --mrc --annotate; do
		sh_status 1 "gc-rd $opt '$T/t1.gcs' >/dev/full"
	done
}

@test "gc-rd: a truncated stream: the reader's message, exit 1, empty stdout" {
	rd-gen -n 100 -m 10 >"$T/r.gcs"
	head -c 1000 "$T/r.gcs" >"$T/cut.gcs"
	for opt in "" --json --annotate; do
		sh_status 1 "gc-rd $opt <'$T/cut.gcs'"
		expect_match "$(cat "$T/err")" "^gc-rd: stdin: record [0-9]+ \(offset [0-9]+\): truncated record"
		[ ! -s "$T/out" ] || [ "$opt" = --annotate ]
	done
	sh_status 1 "echo hello | gc-rd"
	expect_match "$(cat "$T/err")" "^gc-rd: stdin: short header"
	[ ! -s "$T/out" ]
}

@test "gc-rd: usage errors" {
	mkacc t1 0 5
	for bad in "--gran word|--gran: 'word' is not line, sector or byte" \
		"--by warp|--by: 'warp' is not sm, kernel or pc" \
		"--index X|--index needs --sets" \
		"--sets 8 --index Q|--index: 'Q' is not linear, xor, fermi or ipoly" \
		"--sets 8 --index P|--sets 8 --index ipoly: the ipoly set index needs 16, 32 or 64 sets, not 8" \
		"--ways 8 --lines 4|--ways 8 --lines 4: 8 ways do not fit in 4 lines" \
		"--ways 2|--ways needs --lines" \
		"--exact 10|--exact: 10 is not a power of two" \
		"--line 96|--line: 96 is not a power of two" \
		"--json --csv|--json, --csv, --mrc and --annotate exclude each other" \
		"-z|-z writes a stream: it needs --annotate" \
		"--sets 0|--sets: 0 is out of range" \
		"--prefetches drop|--prefetches: 'drop' is not count or exclude"; do
		sh_status 2 "gc-rd ${bad%%|*} '$T/t1.gcs'"
		expect_match "$(head -1 "$T/err")" "^gc-rd: ${bad#*|}"
		[ ! -s "$T/out" ]
	done
}

@test "gc-rd: --stats writes the JSON object, -v the report on stderr" {
	mkacc t1 0 5 3 9 3 3 5
	gc-rd --line 4 --annotate --stats "$T/s.json" -v "$T/t1.gcs" >"$T/a.gcs" 2>"$T/err"
	expect_eq "$(jv references "$T/s.json")" 7 references
	grep -q '^compulsory        3 (42.86%)$' "$T/err"
	expect_eq "$(dists "$T/a.gcs" | wc -l)" 7
}

@test "gc-rd: sampled rows with first uses only (a tiny sample, --by pc)" {
	mkacc t1 0 128 256 384 512 640 768 896
	sh_status 0 "gc-rd --sample 2 --by pc --json '$T/t1.gcs'"
	expect_eq "$(jv references "$T/out")" 8 references
}

@test "gc-rd: deterministic: the same input and options, the same bytes" {
	rd-gen -n 5000 -m 300 >"$T/r.gcs"
	expect_same <(gc-rd --json --sample 64 --by pc "$T/r.gcs") <(gc-rd --json --sample 64 --by pc "$T/r.gcs")
	expect_same <(gc-rd --annotate "$T/r.gcs") <(gc-rd --annotate "$T/r.gcs")
}

@test "gc-rd: --hash is a deprecated alias of --index (gc-l1's value names)" {
	rd-gen -n 2000 -m 200 -k 2 -s 3 >"$T/r.gcs"
	gc-rd --json --sets 32 --index xor "$T/r.gcs" >"$T/new" 2>"$T/e"
	expect_empty "$(cat "$T/e")"
	grep -q '^  "index": "xor",$' "$T/new"
	gc-rd --json --sets 32 --hash X "$T/r.gcs" >"$T/old" 2>"$T/e"
	expect_eq "$(cat "$T/e")" "gc-rd: --hash is deprecated: use --index"
	cmp "$T/new" "$T/old"
}

@test "gc-rd: --plot draws the cut-off at the cache the JSON reports (--gpu's L1)" {
	gc-import "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" | gc-sched --gpu volta-v100 |
		gc-coalesce >"$T/r.gcs"
	gc-rd --gpu volta-v100 --json --plot "$T/v.svg" "$T/r.gcs" >"$T/j"
	lines=$(awk '/"cache": \{/ { c = 1 } c && /"lines":/ { gsub(/[^0-9]/, ""); print; exit }' "$T/j")
	[ -n "$lines" ]
	expect_eq "$(sed -n 's/.*class="cutoff-label">cache of \([0-9]*\) lines.*/\1/p' "$T/v.svg")" "$lines"
	expect_eq "$(sed -n 's/.*class="cutoff-label">\([0-9]*\) lines: LRU.*/\1/p' "$T/v.svg")" "$lines"
	sh "$GC_ROOT/tests/svgcheck" "$T/v.svg"
}
