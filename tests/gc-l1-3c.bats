#!/usr/bin/env bats
# gc-l1's miss classes against the definition: hand-worked cases (the
# three Cs of Hill and Smith, the partial-write class, the per-sector
# counts), and a grid of configurations on which gc-l1 and ref3c
# (tests/src/ref3c.c, an independent plain simulator of the definition)
# must give the same compulsory, capacity and conflict counts.

load helpers

L1FIX="$FIX/l1"

setup() {
	T=$BATS_TEST_TMPDIR
}

# mk NAME: the request stream $T/NAME.gcs from "sm block warp seq op addr
# mask bytes ..." lines on stdin (tests/fixtures/l1/mkreq.awk), LINE-byte
# lines (default 128), 32-byte sectors.
mk() {
	awk -v SECTOR=32 -v LINE="${LINE:-128}" -f "$L1FIX/mkreq.awk" >"$T/$1.csv" &&
		gc-import -f csv "$T/$1.csv" >"$T/$1.gcs"
}

# classes OPTIONS... FILE: gc-l1's "misses by class" line, without the name.
classes() {
	gc-l1 -v "$@" 2>&1 >/dev/null | sed -n 's/^gc-l1: misses by class: //p'
}

# jget JSON KEY: one value of a --stats file (arrays as kernels.0.hits).
jget() {
	gc-stats --merge --arrays "$1" |
		awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
			NR == 2 { if (c) print $c; else print "no key " k }'
}

@test "3C: 50 loads cycling over 5 lines, 4-line direct-mapped cache: 5 compulsory, 18 capacity, 0 conflict" {
	# Lines 0..4 of 32 bytes, 4 sets of 1 way: lines 0 and 4 share set 0.
	# The cache: 0 1 2 3 4 miss (compulsory), then each round of 5 from
	# the second on: 0 misses (4 holds set 0), 1 2 3 hit, 4 misses (0
	# holds it): 2 x 9 = 18 more misses, 23 in all.  A fully associative
	# LRU cache of 4 lines misses every reference of a cycle over 5
	# lines, so all 18 are capacity misses and none is a conflict.
	{
		echo "K 1 k 32 0 8"
		for i in $(seq 0 49); do echo "0 0 0 $i load $(((i % 5) * 32)) 0x1 4"; done
	} | LINE=32 mk c5
	expect_eq "$(classes --size 128 --line 32 --sector 32 --ways 1 --index linear "$T/c5.gcs")" \
		"compulsory 5 capacity 18 conflict 0 latency 0 mshr 0 partial-write 0; MSHR stalls 0"
	expect_eq "$(ref3c 4 1 32 32 lru wb <<<"$(seq 0 49 | awk '{ print "load", ($1 % 5) * 32, 1 }')")" \
		"references 50 misses 23 compulsory 5 capacity 18 conflict 0"
	# Fully associative (1 set of 4 ways), LRU and FIFO alike: the same
	# 23 misses, and a fully associative cache has no conflict misses.
	for r in lru fifo; do
		expect_eq "$(classes --size 128 --line 32 --sector 32 --sets 1 --ways 4 --index linear --replacement $r "$T/c5.gcs")" \
			"compulsory 5 capacity 45 conflict 0 latency 0 mshr 0 partial-write 0; MSHR stalls 0"
	done
}

@test "3C: the shadow sees hits: a set-associative miss the LRU shadow hits is a conflict" {
	# 2 lines, 2 sets x 1 way against 1 set x 2 ways, 128-byte lines.
	# Lines 0 and 2 share set 0, line 1 is set 1.  0 1 2 1 0:
	#   cache: 0 c, 1 c, 2 c (evicts 0), 1 hit, 0 miss: line 0 was
	#   referenced, and the fully associative cache of 2 lines holds 2 and
	#   1 after "0 1 2 1" (1 used last, 0 gone): it misses 0 too: capacity.
	# 0 1 0 2 0: 0 c, 1 c, 0 hit, 2 c (evicts 0), 0 miss: the shadow holds
	#   0 and 2 (the hit on 0 made 1 the least recent): a conflict.  A
	#   shadow fed only fills (never hits) would have evicted 0 instead.
	printf 'K 1 k 32 0 8\n0 0 0 0 load 0x000 0x1 4\n0 0 0 1 load 0x080 0x1 4\n0 0 0 2 load 0x100 0x1 4\n0 0 0 3 load 0x080 0x1 4\n0 0 0 4 load 0x000 0x1 4\n' | mk a
	printf 'K 1 k 32 0 8\n0 0 0 0 load 0x000 0x1 4\n0 0 0 1 load 0x080 0x1 4\n0 0 0 2 load 0x000 0x1 4\n0 0 0 3 load 0x100 0x1 4\n0 0 0 4 load 0x000 0x1 4\n' | mk b
	expect_eq "$(classes --sector 128 --sets 2 --ways 1 --index linear "$T/a.gcs")" \
		"compulsory 3 capacity 1 conflict 0 latency 0 mshr 0 partial-write 0; MSHR stalls 0"
	expect_eq "$(classes --sector 128 --sets 2 --ways 1 --index linear "$T/b.gcs")" \
		"compulsory 3 capacity 0 conflict 1 latency 0 mshr 0 partial-write 0; MSHR stalls 0"
	# FIFO: the same cache, and a FIFO shadow evicts 0 (filled first)
	# whatever the hit: b's last miss becomes capacity.
	expect_eq "$(classes --sector 128 --sets 2 --ways 1 --index linear --replacement fifo "$T/b.gcs")" \
		"compulsory 3 capacity 1 conflict 0 latency 0 mshr 0 partial-write 0; MSHR stalls 0"
}

@test "partial-write: a 1-byte store then two loads of that byte: compulsory 1, partial-write 1" {
	# write-allocate: the store misses (compulsory) and allocates the line
	# but cannot validate a sector it writes 1 byte of; the first load
	# misses on that sector (partial-write, not capacity in an all but
	# empty cache), fetches it; the second load hits.
	printf 'K 1 k 32 0 8\n0 0 0 0 store 0x1000 0x1 1\n0 0 0 1 load 0x1000 0x1 1\n0 0 0 2 load 0x1000 0x1 1\n' | mk p
	for w in write-back write-through; do
		expect_eq "$(classes --sector 32 --write $w --write-alloc write-allocate "$T/p.gcs")" \
			"compulsory 1 capacity 0 conflict 0 latency 0 mshr 0 partial-write 1; MSHR stalls 0"
		gc-l1 --emit all --sector 32 --write $w --write-alloc write-allocate "$T/p.gcs" |
			gc-stats --dump | awk -F, '!/^#/ && $1 != "kernel" && $14 != "" { printf "%s ", $14 }' >"$T/o"
		expect_eq "$(cat "$T/o")" "miss/compulsory sector-miss/partial-write hit "
		# the timing model classifies it the same
		expect_eq "$(classes --timing --sector 32 --write $w --write-alloc write-allocate "$T/p.gcs")" \
			"compulsory 1 capacity 0 conflict 0 latency 0 mshr 0 partial-write 1; MSHR stalls 0"
	done
	# fetch-on-write reads the sector first: the loads hit.
	expect_eq "$(classes --sector 32 --write write-back --write-alloc fetch-on-write "$T/p.gcs")" \
		"compulsory 1 capacity 0 conflict 0 latency 0 mshr 0 partial-write 0; MSHR stalls 0"
	# gc-stats counts and names the class.
	gc-l1 --emit all --sector 32 --write write-back --write-alloc write-allocate "$T/p.gcs" >"$T/a.gcs"
	expect_eq "$(gc-stats "$T/a.gcs" | awk '$1 == "partial-write" { print $2 }')" 1
	expect_eq "$(gc-stats --json "$T/a.gcs" | tr -d ' \n' | grep -o '"partial_write":[0-9]*')" '"partial_write":1'
}

@test "partial-write: a store to a sector a partial store left hits it, a load still misses it" {
	# As GPGPU-Sim's MODIFIED sector with a byte mask: the sector a
	# partial store leaves invalid (lazy-fetch-on-read) is held, and a
	# later store to it hits; a load misses it (partial-write) and fetches
	# it.  Line 0x1000, sectors s0 s1 (32 bytes):
	#   1 store s0, 1 byte: line absent   miss/compulsory, s0 held
	#   2 store s0, 1 byte                hit (held)
	#   3 load s0                         sector-miss/partial-write, s0 fetched
	#   4 store s0, 1 byte                hit (valid)
	#   5 store s0-1, 2 bytes             sector-miss/compulsory (s1 never seen), s1 held
	#   6 store s1, 1 byte                hit (held)
	#   7 load s0-1                       sector-miss/partial-write, s1 fetched
	#   8 load s1                         hit
	# hits 4 (2 4 6 8), misses 4, sector misses 3 (3 5 7); classes:
	# compulsory 2, partial-write 2.  Sectors: stores 6 requested, 4 hits
	# (2, 4, 5's s0, 6), a line miss (1) and a sector miss (5's s1);
	# loads 4 requested, 2 hits (7's s0, 8).  To L2
	# (write-through): the 5 stores and the fetches of 3 and 7, as before
	# (a held sector's store hit still writes through; the state is a
	# miss's).  Without held sectors 2 and 6 were sector-miss/partial-write:
	# hits 2, partial-write 4, store sector hits 2.
	printf '%s\n' 'K 1 k 32 0 8' '0 0 0 1 store 0x1000 0x1 1' '0 0 0 2 store 0x1000 0x1 1' \
		'0 0 0 3 load 0x1000 0x1 1' '0 0 0 4 store 0x1000 0x1 1' '0 0 0 5 store 0x1000 0x3 2' \
		'0 0 0 6 store 0x1020 0x2 1' '0 0 0 7 load 0x1000 0x3 2' '0 0 0 8 load 0x1020 0x2 1' | mk h
	o="--gpu volta-v100 --sector 32 --write write-through --write-alloc lazy-fetch-on-read"
	local t
	for t in "" --timing; do
		# shellcheck disable=SC2086
		gc-l1 $o $t --emit all --stats "$T/h.json" "$T/h.gcs" >"$T/a.gcs"
		expect_eq "$(gc-stats --dump "$T/a.gcs" | awk -F, '!/^#/ && $1 != "kernel" && $14 != "" { printf "%s ", $14 }')" \
			"miss/compulsory hit sector-miss/partial-write hit sector-miss/compulsory hit sector-miss/partial-write hit " "$t"
		expect_eq "$(jget "$T/h.json" hits) $(jget "$T/h.json" misses) $(jget "$T/h.json" sector_misses)" "4 4 3" "$t"
		expect_eq "$(jget "$T/h.json" classes.compulsory) $(jget "$T/h.json" classes.partial_write)" "2 2" "$t"
		expect_eq "$(jget "$T/h.json" sectors.stores.requested) $(jget "$T/h.json" sectors.stores.hits) $(jget "$T/h.json" sectors.stores.line_misses) $(jget "$T/h.json" sectors.stores.sector_misses)" "6 4 1 1" "$t"
		expect_eq "$(jget "$T/h.json" sectors.loads.requested) $(jget "$T/h.json" sectors.loads.hits)" "4 2" "$t"
		# shellcheck disable=SC2086
		expect_eq "$(gc-l1 $o $t "$T/h.gcs" | gc-stats --dump | awk -F, '!/^#/ && $1 != "kernel" && $8 ~ /load|store/ { printf "%s:%s ", $8, $12 }')" \
			"store:0x1 store:0x1 load:0x1 store:0x1 store:0x3 store:0x2 load:0x2 " "$t L2 stream"
	done
	# the one-pass sweep counts it the same: one set of 1 and 2 ways
	# shellcheck disable=SC2086
	run_status 0 gc-l1 $o --sets 1 --ways-sweep 1,2 "$T/h.gcs"
	expect_eq "$(echo "$output" | cut -d, -f4,5,6,8,9 | tr '\n' ' ')" \
		"hits,misses,sector_misses,sectors.requested,sectors.hits 4,4,3,10,6 4,4,3,10,6 "
}

@test "sectors: per-sector hits and misses, requests and hit rates, total, per kernel and per SM" {
	# 128-byte lines of 4 32-byte sectors, one set of 2 ways.
	#   SM 0: load 0x1000 0x3 (sectors 0,1): miss, 2 sectors missed
	#         load 0x1000 0x7 (0,1,2): sector miss: 0,1 hit, 2 missed
	#         load 0x1000 0x5 (0,2): hit: 2 sector hits
	#         store 0x1000 0x8 (3), 32 B, write-back + write-allocate:
	#           sector miss, 3 missed (it becomes valid)
	#         load 0x1000 0xf: hit: 4 sector hits
	#   SM 1: load 0x2000 0x1: miss, 1 missed; load 0x2000 0x1: hit, 1 hit
	#         atomic 0x2000 0x1: bypassed, not counted
	# SM 0: 12 requested, 8 hits, 4 misses (rate 0.6667), against 2 of 5
	#   requests hitting; SM 1: 2 requested, 1 hit; in all 14, 9, 5
	#   (0.6429), against 3 of 7 requests (0.4286).
	cat >"$T/s.txt" <<-EOF
	K 1 k 32 0 8
	0 0 0 0 load 0x1000 0x3 64
	0 0 0 1 load 0x1000 0x7 96
	0 0 0 2 load 0x1000 0x5 64
	0 0 0 3 store 0x1000 0x8 32
	0 0 0 4 load 0x1000 0xf 128
	1 1 0 0 load 0x2000 0x1 32
	1 1 0 1 load 0x2000 0x1 32
	1 1 0 2 atomic 0x2000 0x1 4
	EOF
	mk s <"$T/s.txt"
	opts="--sector 32 --sets 1 --ways 2 --index linear --write write-back --write-alloc write-allocate"
	gc-l1 $opts --stats "$T/s.json" -v "$T/s.gcs" 2>"$T/v" >/dev/null
	expect_eq "$(jget "$T/s.json" sectors.requested) $(jget "$T/s.json" sectors.hits) $(jget "$T/s.json" sectors.misses)" "14 9 5"
	expect_eq "$(jget "$T/s.json" sector_hit_rate)" 0.642857
	expect_eq "$(jget "$T/s.json" hit_rate)" 0.428571
	expect_eq "$(jget "$T/s.json" kernels.0.sectors.requested) $(jget "$T/s.json" kernels.0.sectors.hits) $(jget "$T/s.json" kernels.0.sectors.misses)" "14 9 5"
	expect_eq "$(jget "$T/s.json" kernels.0.sector_hit_rate)" 0.642857
	expect_eq "$(jget "$T/s.json" per_sm.0.sectors.requested) $(jget "$T/s.json" per_sm.0.sectors.hits) $(jget "$T/s.json" per_sm.0.sectors.misses)" "12 8 4"
	expect_eq "$(jget "$T/s.json" per_sm.0.sector_hit_rate)" 0.666667
	expect_eq "$(jget "$T/s.json" per_sm.1.sectors.requested) $(jget "$T/s.json" per_sm.1.sectors.hits) $(jget "$T/s.json" per_sm.1.sectors.misses)" "2 1 1"
	expect_eq "$(jget "$T/s.json" per_sm.1.sector_hit_rate)" 0.5
	expect_eq "$(grep 'sectors' "$T/v")" "gc-l1: sectors: requested 14, hits 9, misses 5; sector hit rate 0.6429"
	# A sector counts as a hit when it is valid on arrival.  Two warps
	# load sectors 0,1 then 0,1,2 of one line: functionally the second
	# finds 0 and 1 valid (5 requested, 2 hits); in the timing model it
	# issues at the next step, while the first's miss is in flight (a
	# latency miss), so none of its sectors is valid yet (5, 0).
	printf 'K 1 k 64 0 8\n0 0 0 0 load 0x1000 0x3 64\n0 0 1 0 load 0x1000 0x7 96\n' | mk w
	gc-l1 $opts --stats "$T/f.json" "$T/w.gcs" >/dev/null
	gc-l1 $opts --timing --stats "$T/t.json" "$T/w.gcs" >/dev/null
	expect_eq "$(jget "$T/f.json" sectors.requested) $(jget "$T/f.json" sectors.hits) $(jget "$T/f.json" classes.latency)" "5 2 0"
	expect_eq "$(jget "$T/t.json" sectors.requested) $(jget "$T/t.json" sectors.hits) $(jget "$T/t.json" classes.latency)" "5 0 1"
}

@test "3C grid: gc-l1 and ref3c agree on every class in every configuration" {
	# 3 traces x 2 line sizes x 2 sizes x 5 associativities x 2
	# replacements x 2 write policies: 240 configurations
	# (tests/fixtures/l1/grid3c.sh runs them).
	g="$L1FIX/grid3c.sh"
	run_status 0 sh "$g" "$T" -v SEED=1 -v N=3000 -v H=24 -v STRIDE=16 -v W=60
	run_status 0 sh "$g" "$T" -v SEED=2 -v N=3000 -v H=12 -v STRIDE=8 -v W=200
	run_status 0 sh "$g" "$T" -v SEED=3 -v N=3000 -v H=40 -v STRIDE=4 -v W=30
	cat "$T"/v[0-9]* >"$T/gcv"
	sed -n 's/^gc-l1: misses by class: \([a-z]* [0-9]* [a-z]* [0-9]* [a-z]* [0-9]*\).*/\1/p' "$T/gcv" |
		paste -d' ' "$T/conf" - >"$T/gc"
	awk '{ print $5, $6, $7, $8, $9, $10 }' "$T/refv" | paste -d' ' "$T/conf" - >"$T/ref"
	expect_eq "$(wc -l <"$T/gc") $(wc -l <"$T/ref")" "240 240"
	expect_same "$T/gc" "$T/ref" "gc-l1 against ref3c"
	# Every class occurs, so the comparison tells them apart.
	expect_eq "$(awk '$7 > 0 { a++ } $9 > 0 { b++ } $11 > 0 { c++ } END { print (a > 0) (b > 0) (c > 0) }' "$T/ref")" 111
	# A fully associative cache has no conflict misses.
	expect_eq "$(awk '($1 == 32 && $3 == $2 / 32) || ($1 == 128 && $3 == $2 / 128) { s += $11 } END { print s + 0 }' "$T/gc")" 0
}

@test "3C, timing: a fully associative L1 is its own shadow: no conflict misses with LRU, FIFO or random" {
	# matmul through the timing model, one set of 32 lines: the shadow
	# takes the L1's lookups at issue and its fills at their return, so it
	# stays the same cache (random: the same draws) and every miss that is
	# neither compulsory nor latency is capacity.  (A shadow that was LRU
	# whatever the L1, fed only fills, gave FIFO 144 and random 295
	# conflict misses here.)
	gc-gen matmul -n 48 | gc-sched | gc-coalesce >"$T/m.gcs"
	fa="--timing --sets 1 --ways 32 --index linear"
	expect_eq "$(classes $fa --replacement lru "$T/m.gcs")" \
		"compulsory 792 capacity 72 conflict 0 latency 3024 mshr 0 partial-write 0; MSHR stalls 0"
	expect_eq "$(classes $fa --replacement fifo "$T/m.gcs")" \
		"compulsory 792 capacity 216 conflict 0 latency 3013 mshr 0 partial-write 0; MSHR stalls 0"
	expect_eq "$(classes $fa --replacement random "$T/m.gcs")" \
		"compulsory 792 capacity 359 conflict 0 latency 2947 mshr 0 partial-write 0; MSHR stalls 0"
}
