#!/usr/bin/env bats
# gc-l2: address mapping, slices, write policies, flushes, conservation.
#
# The mapping is checked through addrmap-test (tests/src) against the
# masks and the worked QV100 example of reference §3.5 and against
# addresses worked by hand for every partition indexing.  The cache is
# checked on hand-written request streams (tests/fixtures/l2) restored by
# gc-import, on a tiny L2 of one slice, 2 sets and 2 ways (TINY), so every
# count below can be followed on paper: sets are (address >> 7) & 1.

load helpers

V100_MAP='dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCB.CCCSSSSS'
RTX_MAP='dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS'
TINY="--gpu volta-v100 --channels 1 --sub-partitions 1 --partition-index consecutive --sets 2 --ways 2 --index linear"

# mk NAME: restore tests/fixtures/l2/NAME.csv into $T/NAME.gcs.
mk() {
	gc-import "$FIX/l2/$1.csv" >"$T/$1.gcs"
}

# records FILE: the data lines of a dump, no comments, header or control.
records() {
	gc-stats --dump "$1" | grep -v '^#' | grep -Ev '^(kernel,|[0-9]*,,,,,,,k|,,,,,,,end)'
}

# slice_sum FIELD FILE: FIELD summed over per_slice of a gc-l2 summary (the
# slice objects' own fields, six spaces in; sectors.FIELD for the sector
# counts, eight).
slice_sum() {
	local f=$1 ind='      '
	case $f in sectors.*) f=${f#sectors.}; ind='        ' ;; esac
	awk -v f="$ind\"$f\":" '/^  "per_slice"/ { on = 1 } on && index($0, f) == 1 { s += $NF } END { print s + 0 }' "$2"
}

# sv KEY FILE: a value of the top-level "sectors" object.
sv() {
	sed -n "/^  \"sectors\": {/,/^  }/s/^    \"$1\": \([0-9]*\),*$/\1/p" "$2"
}

# expect_sectors FILE REQUESTED HITS MISSES RATE: the top-level sector counts
# and sector_hit_rate of a gc-l2 summary.
expect_sectors() {
	expect_eq "$(sv requested "$1") $(sv hits "$1") $(sv misses "$1") $(jv sector_hit_rate "$1")" \
		"$2 $3 $4 $5" "sectors requested, hits, misses, rate"
}

# slice_field N FIELD FILE: FIELD of slice N in per_slice.
slice_field() {
	awk -v s="\"slice\": $1," -v f="\"$2\":" '/^  "per_slice"/ { top = 1 } top && $0 ~ s { on = 1 } on && $1 == f { sub(/,$/, "", $2); print $2; exit }' "$3"
}

# randreq N SEED SPAN [LOADS]: N requests (loads, partial and full
# stores, atomics; with LOADS=1 loads only) over SPAN bytes of lines, two
# kernels, as a CSV dump.
randreq() {
	awk -v n="$1" -v seed="$2" -v span="$3" -v loads="${4:-0}" 'BEGIN {
		srand(seed)
		print "# gc-stats dump 1"; print "# kind requests"; print "# version 1.0"
		print "# record_size 32"; print "# required 0x0"; print "# optional 0x1"
		print "kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info"
		t = 0
		for (k = 1; k <= 2; k++) {
			print k ",,,,,,,kbegin,,,,,,,,\"r\",grid=1x1x1 block=32x1x1 regs=0 shmem=0"
			for (i = 0; i < n / 2; i++) {
				a = int(rand() * span / 128) * 128 + 1048576
				u = rand(); m = 1 + int(rand() * 15)
				c = 0; for (b = 1; b <= 8; b *= 2) if (int(m / b) % 2) c++
				if (u < 0.6 || loads) { op = "load"; s = 32 * c }
				else if (u < 0.75) { op = "store"; s = 32 * c }
				else if (u < 0.95) { op = "store"; s = 4 * c }
				else { op = "atomic"; s = 4 * c }
				printf "%d,%d,0,0,,0x100,%d,%s,global,%d,%d,%d,%d,,0,,\n", k, i % 80, i, op, a, s, m, t++
			}
			print k ",,,,,,,kend,,,,,,,,,records=" n / 2
		}
		print ",,,,,,,end,,,,,,,,,records=" n + 6 " data=" n
	}'
}

@test "gc-l2: the mandatory command-line cases" {
	common_cli_cases gc-l2 --ways
}

@test "gc-l2: --help and the manual list the same options" {
	help_matches_man gc-l2
}

@test "gc-l2: mapping masks are those of reference §3.5" {
	run_status 0 addrmap-test masks "$V100_MAP" 32 2 ipoly
	expect_eq "$output" "chip 0x1f00 bank 0xe2000 row 0x1fff00000 col 0x1c0ff burst 0x1f sub 0x2000 gap 0"
	run_status 0 addrmap-test masks "$RTX_MAP" 16 2 ipoly
	expect_eq "$output" "chip 0xf00 bank 0x70080 row 0xfff80000 col 0xf07f burst 0x1f sub 0x80 gap 0"
	run_status 0 addrmap-test masks "$RTX_MAP" 12 2 consecutive
	expect_eq "$output" "chip 0x0 bank 0x7080 row 0xfff8000 col 0xf7f burst 0x1f sub 0x80 gap 1"
	run_status 0 addrmap-test masks "$RTX_MAP" 40 4 consecutive
	expect_eq "$output" "chip 0x0 bank 0x7080 row 0xfff8000 col 0xf7f burst 0x1f sub 0x1080 gap 1"
}

@test "gc-l2: the worked QV100 example: sub-partition 44, chip 22, L2 set 20" {
	# raw chip 0 and raw sub 0; hi = addr >> 14; IPOLY(64) = 44 (checked
	# by hand from the equations of reference §3.2); the partition
	# address drops bits 8-13; IPOLY(32) of it gives set 20.
	run_status 0 addrmap-test decode "$V100_MAP" 32 2 ipoly -s ipoly:32 0x7f7393708000
	expect_eq "$output" "0x7f7393708000 chip 22 sub 44 bank 0 row 0x1937 col 0x200 burst 0x0 paddr 0x1fdce4dc200 set 20"
	# consecutive: the raw chip and sub; linear and xor sets of the same
	# partition address: (pa >> 7) & 31 = 4, 4 ^ ((pa >> 12) & 31) = 24
	run_status 0 addrmap-test decode "$V100_MAP" 32 2 consecutive -s linear:32 0x7f7393708000
	expect_eq "$output" "0x7f7393708000 chip 0 sub 0 bank 0 row 0x1937 col 0x200 burst 0x0 paddr 0x1fdce4dc200 set 4"
	run_status 0 addrmap-test decode "$V100_MAP" 32 2 ipoly -s xor:32 0x7f7393708000
	expect_eq "${output##* }" 24
}

@test "gc-l2: consecutive partition indexing and the fields, by hand" {
	run_status 0 addrmap-test decode "$V100_MAP" 32 2 consecutive 0x3f00 0x100 0x2000 0x80000 0x4000 0x100000
	# 0x3f00: chip bits 8-12 = 31, sub bit 13 = 1: sub 63; bits 8-13 go
	expect_eq "${lines[0]}" "0x3f00 chip 31 sub 63 bank 1 row 0x0 col 0x0 burst 0x0 paddr 0x0"
	expect_eq "${lines[1]}" "0x100 chip 1 sub 2 bank 0 row 0x0 col 0x0 burst 0x0 paddr 0x0"
	# bit 13 is bank bit 0 and the sub-partition bit
	expect_eq "${lines[2]}" "0x2000 chip 0 sub 1 bank 1 row 0x0 col 0x0 burst 0x0 paddr 0x0"
	# bank bits 13, 17, 18, 19: bit 19 is bank bit 3
	expect_eq "${lines[3]}" "0x80000 chip 0 sub 0 bank 8 row 0x0 col 0x0 burst 0x0 paddr 0x2000"
	# column bits 0-7, 14-16: bit 14 is column bit 8
	expect_eq "${lines[4]}" "0x4000 chip 0 sub 0 bank 0 row 0x0 col 0x100 burst 0x0 paddr 0x100"
	# row bits 20-32
	expect_eq "${lines[5]}" "0x100000 chip 0 sub 0 bank 0 row 0x1 col 0x0 burst 0x0 paddr 0x4000"
}

@test "gc-l2: bitwise permutation and IPOLY partition indexing, by hand" {
	# hi = addr >> 14 = 1: chip 0 ^ 1 = 1 (sub 2); chip 1 ^ 1 = 0
	run_status 0 addrmap-test decode "$V100_MAP" 32 2 bitwise-permutation 0x4000 0x4100
	expect_eq "${lines[0]%% row*}" "0x4000 chip 1 sub 2 bank 0"
	expect_eq "${lines[1]%% row*}" "0x4100 chip 0 sub 0 bank 0"
	# IPOLY(64) with hi = 1, index 0: a0 is in s0 and s1 only: 3
	run_status 0 addrmap-test decode "$V100_MAP" 32 2 ipoly 0x4000
	expect_eq "${output%% row*}" "0x4000 chip 1 sub 3 bank 0"
	run_status 2 addrmap-test decode "$V100_MAP" 32 2 no-such
}

@test "gc-l2: channel counts that are not a power of two (modulo), by hand" {
	# 12 channels: 0xd00 >> 8 = 13: chip 13 % 12 = 1, rest = 1 << 8;
	# sub bit 7 of the rest = 0: sub 2; partition address 0x100 without
	# bit 7 = 0x80
	run_status 0 addrmap-test decode "$RTX_MAP" 12 2 consecutive 0xd00 0xc80
	expect_eq "${lines[0]}" "0xd00 chip 1 sub 2 bank 0 row 0x0 col 0x80 burst 0x0 paddr 0x80"
	expect_eq "${lines[1]}" "0xc80 chip 0 sub 1 bank 1 row 0x0 col 0x80 burst 0x0 paddr 0x80"
	# IPOLY over nextpow2(12) * 2 = 32, hi = (addr >> 8) / 12 = 1, index 1:
	# a0 is in s0 and s2: 0b00101 ^ 1 = 4, modulo 24 = 4, chip 2
	run_status 0 addrmap-test decode "$RTX_MAP" 12 2 ipoly 0xc80
	expect_eq "${output%% row*}" "0xc80 chip 2 sub 4 bank 1"
	# IPOLY-modulo over 40 * 2 = 16 * 5: 0x2800 >> 8 = 40: raw chip 0,
	# hi 1: IPOLY(16) of (1, 0) = 3 (a0 in s0, s1), (0 + 1) % 5 = 1:
	# sub 1 * 16 + 3 = 19, chip 9
	run_status 0 addrmap-test decode "$RTX_MAP" 40 2 ipoly-modulo 0x0 0x2800
	expect_eq "${lines[0]%% row*}" "0x0 chip 0 sub 0 bank 0"
	expect_eq "${lines[1]%% row*}" "0x2800 chip 9 sub 19 bank 0"
	# bitwise permutation needs a power of two; IPOLY 16, 32 or 64
	run_status 1 addrmap-test masks "$RTX_MAP" 12 2 bitwise-permutation
	expect_match "$output" "power-of-two channel count"
	run_status 1 addrmap-test masks "$RTX_MAP" 40 2 ipoly
	expect_match "$output" "16, 32 or 64"
}

@test "gc-l2: random partition indexing is deterministic and uses every slice" {
	addrs=$(awk 'BEGIN { for (i = 0; i < 4096; i++) printf " %d", i * 256 }')
	# shellcheck disable=SC2086
	addrmap-test decode "$V100_MAP" 32 2 random $addrs >"$T/a"
	# shellcheck disable=SC2086
	addrmap-test decode "$V100_MAP" 32 2 random $addrs >"$T/b"
	cmp "$T/a" "$T/b"
	expect_eq "$(awk '{ print $5 }' "$T/a" | sort -un | wc -l | tr -d ' ')" 64
	expect_eq "$(awk '$5 > 63 || $3 != int($5 / 2)' "$T/a" | wc -l | tr -d ' ')" 0
}

@test "gc-l2: a line's set among all slices', by table, is the mapping's and the index's" {
	# gc_l2map_locate XORs one entry per address byte where mapping and
	# index are linear over GF(2); addrmap-test fails unless it equals
	# slice * sets + set as gc_addrmap_slice and gc_set_index give them,
	# on addresses with every byte below 2^48 busy (and one above)
	addrs=$(awk 'BEGIN { srand(5); for (i = 0; i < 200; i++) printf " %.0f", int(rand() * 2^48) }')
	for c in "ipoly ipoly:32" "bitwise-permutation xor:32" "consecutive fermi:64" "random linear:16"; do
		# shellcheck disable=SC2086
		addrmap-test decode "$V100_MAP" 32 2 ${c% *} -s ${c#* } $addrs 0xffff000000000080 >/dev/null
	done
	# not linear (12 channels: a modulo): the slow path alone
	# shellcheck disable=SC2086
	addrmap-test decode "$RTX_MAP" 12 2 ipoly -s ipoly:32 $addrs >/dev/null
}

@test "gc-l2: requests go to the slice of their address" {
	cat >"$T/s.csv" <<-'EOF'
	# gc-stats dump 1
	# kind requests
	# version 1.0
	# record_size 32
	# required 0x0
	# optional 0x0
	kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info
	1,,,,,,,kbegin,,,,,,,,"k",grid=1x1x1 block=32x1x1 regs=0 shmem=0
	1,0,0,0,,0x10,0,load,global,0x7f7393708000,128,0xf,1,,0,,
	1,0,0,0,,0x10,1,load,global,0x7f7393708000,128,0xf,2,,0,,
	1,0,0,0,,0x10,2,load,global,0x3f00,32,0x1,3,,0,,
	1,,,,,,,kend,,,,,,,,,records=3
	,,,,,,,end,,,,,,,,,records=6 data=3
	EOF
	gc-import "$T/s.csv" >"$T/s.gcs"
	gc-l2 --gpu volta-v100 --stats "$T/j" "$T/s.gcs" >/dev/null
	# IPOLY: 0x7f7393708000 to slice 44 (above); 0x3f00: raw sub 63 and
	# hi 0, so IPOLY leaves it at 63
	expect_eq "$(slice_field 44 requests "$T/j")" 2
	expect_eq "$(slice_field 44 hits "$T/j")" 1
	expect_eq "$(slice_field 44 channel "$T/j")" 22
	expect_eq "$(slice_field 63 requests "$T/j")" 1
	expect_eq "$(slice_sum requests "$T/j")" 3
	gc-l2 --gpu volta-v100 --partition-index consecutive --stats "$T/j" "$T/s.gcs" >/dev/null
	expect_eq "$(slice_field 0 requests "$T/j")" 2
	expect_eq "$(slice_field 63 requests "$T/j")" 1
	expect_eq "$(slice_sum requests "$T/j")" 3
}

@test "gc-l2: write-validate (lazy-fetch-on-read): partial sectors, fetch on read, flush" {
	mk seq
	# 1 store 0x0 s0 4 B: miss, s0 partial+dirty, no read
	# 2 load 0x0 s0: sector miss, the partial sector is fetched (1 read)
	# 3 store 0x0 s0-1 64 B: fills; sector miss (s1 absent); dirty 0x3
	# 4 store 0x100 s0-3 128 B: miss (set 0, way 1)
	# 5 load 0x200: miss, 4 reads, evicts 0x0 (LRU): write 0x3, 64 B
	# 6 store 0x80 s1 8 B: miss (set 1), partial, 8 B
	# 7 store 0x80 s1 8 B: hit (a partial sector is present for a store), 16 B
	# flush: 0x100 (0xf, 128 B), 0x80 (0x2, 16 B)
	gc-l2 $TINY --write-alloc lazy-fetch-on-read --kernel-boundary flush --stats "$T/j" "$T/seq.gcs" >"$T/o"
	records "$T/o" >"$T/r"
	cat >"$T/want" <<-'EOF'
	1,1,0,0,,0x20,0,load,global,0x0,32,0x1,2,sector-miss,0,,
	1,4,0,0,,0x50,0,load,global,0x200,128,0xf,5,miss,0,,
	1,4,0,0,,0x50,0,store,global,0x0,64,0x3,5,+wb,0,,
	1,0,0,0,,0x0,0,store,global,0x100,128,0xf,7,+wb,0,,
	1,0,0,0,,0x0,0,store,global,0x80,16,0x2,7,+wb,0,,
	EOF
	diff "$T/want" "$T/r"
	expect_eq "$(jv requests "$T/j")" 7
	expect_eq "$(jv hits "$T/j")" 1
	expect_eq "$(jv misses "$T/j")" 6
	expect_eq "$(jv sector_misses "$T/j")" 2
	expect_eq "$(jv line_misses "$T/j")" 4
	expect_eq "$(jv reads "$T/j")" 2
	expect_eq "$(jv read_hits "$T/j")" 0
	expect_eq "$(jv writes "$T/j")" 5
	expect_eq "$(jv write_hits "$T/j")" 1
	expect_eq "$(jv write_hit_rate "$T/j")" 0.2
	expect_eq "$(jv dram_reads "$T/j")" 5
	expect_eq "$(jv dram_read_bytes "$T/j")" 160
	expect_eq "$(jv dram_writes "$T/j")" 7
	expect_eq "$(jv dram_write_bytes "$T/j")" 208
	grep -q '"partial_fetch": 1' "$T/j"
	grep -q '"load_miss": 4' "$T/j"
	grep -q '"eviction": 2' "$T/j"
	grep -q '"flush": 5' "$T/j"
	expect_eq "$(jv evictions "$T/j")" 1
	expect_eq "$(jv dirty_sectors_left "$T/j")" 0
}

@test "gc-l2: fetch-on-write reads the sectors a partial store does not fill" {
	mk seq
	# 1 reads s0 first; 2 hits; 3 fills (no read); 6 reads s1 first; 7 hits
	gc-l2 $TINY --write-alloc fetch-on-write --kernel-boundary flush --stats "$T/j" "$T/seq.gcs" >"$T/o"
	records "$T/o" >"$T/r"
	cat >"$T/want" <<-'EOF'
	1,0,0,0,,0x10,0,load,global,0x0,32,0x1,1,miss,0,,
	1,4,0,0,,0x50,0,load,global,0x200,128,0xf,5,miss,0,,
	1,4,0,0,,0x50,0,store,global,0x0,64,0x3,5,+wb,0,,
	1,5,0,0,,0x60,0,load,global,0x80,32,0x2,6,miss,0,,
	1,0,0,0,,0x0,0,store,global,0x100,128,0xf,7,+wb,0,,
	1,0,0,0,,0x0,0,store,global,0x80,32,0x2,7,+wb,0,,
	EOF
	diff "$T/want" "$T/r"
	expect_eq "$(jv hits "$T/j")" 2
	expect_eq "$(jv sector_misses "$T/j")" 1
	expect_eq "$(jv dram_reads "$T/j")" 6
	expect_eq "$(jv dram_writes "$T/j")" 7
	expect_eq "$(jv dram_write_bytes "$T/j")" 224
	grep -q '"write_fetch": 2' "$T/j"
	# Sectors: 1 s0 miss; 2 s0 hit; 3 s0 hit, s1 miss; 4 four misses;
	# 5 four misses; 6 s1 miss; 7 s1 hit: 14 requested, 3 hits, 11 misses
	# (requests: 2 hits of 7).
	expect_sectors "$T/j" 14 3 11 0.214286
	expect_eq "$(jv hit_rate "$T/j")" 0.285714
	expect_eq "$(slice_sum sectors.requested "$T/j")" 14
	expect_eq "$(slice_sum sectors.hits "$T/j")" 3
	expect_eq "$(slice_field 0 sector_hit_rate "$T/j")" 0.214286
	gc-l2 $TINY --write-alloc fetch-on-write --kernel-boundary flush -v "$T/seq.gcs" 2>"$T/e" >/dev/null
	expect_eq "$(head -1 "$T/e")" "gc-l2: volta-v100, 1 slices of 2 x 2 x 128 B: 7 requests, 2 hits (28.57%), 14 sectors, 3 sector hits (21.43%), DRAM 6 sector reads (192 B), 7 sector writes (224 B)"
	# then the per-PC table: one PC a request here, the 5 misses among them
	expect_eq "$(sed -n 2p "$T/e")" "gc-l2: per PC, by misses: 7 of 7 (kernel, PC) rows, 5 misses in all"
	expect_eq "$(wc -l <"$T/e")" 10
}

@test "gc-l2: sectors under write-validate: a partial sector is a hit for a store only" {
	mk seq
	# 1 s0 miss; 2 the load misses partial s0; 3 s0 hit (fetched by 2),
	# s1 miss; 4, 5 four misses each; 6 s1 miss; 7 partial s1 hit
	gc-l2 $TINY --write-alloc lazy-fetch-on-read --kernel-boundary flush --stats "$T/j" "$T/seq.gcs" >/dev/null
	expect_sectors "$T/j" 14 2 12 0.142857
}

@test "gc-l2: the fibonacci set index separates lines 1 and 65 that linear puts in one set" {
	# tests/fixtures/l2/fib.csv: loads of line 1 (s0), line 65 (s0), line 1 (s0-1)
	mk fib
	local one="--gpu volta-v100 --channels 1 --sub-partitions 1 --partition-index consecutive --sets 64 --ways 1"
	# linear: lines 1 and 65 are both set 1 of 64 (one way): three misses,
	# 1 + 1 + 2 sector reads
	gc-l2 $one --index linear --stats "$T/j" "$T/fib.gcs" >/dev/null
	expect_eq "$(jv hits "$T/j")" 0
	expect_sectors "$T/j" 4 0 4 0
	expect_eq "$(jv dram_reads "$T/j")" 4
	# fibonacci: line 1 -> floor(.61803398875 * 64) = 39, line 65 ->
	# frac(40.17220926875) * 64 = 11.02 -> 11; the third request finds s0
	# and misses s1: a sector miss, 1 of its 2 sectors a hit, 1 read
	gc-l2 $one --index fibonacci --stats "$T/j" "$T/fib.gcs" >/dev/null
	grep -q "^    \"index\": \"fibonacci\",$" "$T/j"
	expect_eq "$(jv hits "$T/j")" 0
	expect_eq "$(jv sector_misses "$T/j")" 1
	expect_sectors "$T/j" 4 1 3 0.25
	expect_eq "$(jv dram_reads "$T/j")" 3
	# No GPGPU-Sim letter: a cache string cannot name it.
	run_status 2 gc-l2 --cache S:64:128:1,L:B:m:L:F,A:192:4,32:0,32 "$T/fib.gcs"
}

@test "gc-l2: write-allocate (seed 003 Fig. 4) reads every missing sector of a store" {
	mk seq
	# reads: 1 (s0), 3 (s1), 4 (s0-3), 5 (s0-3), 6 (s1) = 11 sectors
	gc-l2 $TINY --write-alloc write-allocate --kernel-boundary flush --stats "$T/j" "$T/seq.gcs" >/dev/null
	expect_eq "$(jv dram_reads "$T/j")" 11
	expect_eq "$(jv dram_read_bytes "$T/j")" 352
	grep -q '"write_fetch": 7' "$T/j"
	expect_eq "$(jv dram_writes "$T/j")" 7
	expect_eq "$(jv dram_write_bytes "$T/j")" 224
	expect_eq "$(jv hits "$T/j")" 2
}

@test "gc-l2: no-write-allocate sends absent sectors around the L2" {
	mk seq
	# 1 around (s0, 4 B); 2 allocates, reads s0; 3 s0 in the line, s1
	# around (32 B); 4 around (128 B); 5 takes the free way 1 of set 0:
	# no eviction; 6, 7 around (8 B each); flush: 0x0 s0 (32 B)
	gc-l2 $TINY --write-alloc no-write-allocate --kernel-boundary flush --stats "$T/j" "$T/seq.gcs" >"$T/o"
	records "$T/o" >"$T/r"
	cat >"$T/want" <<-'EOF'
	1,0,0,0,,0x10,0,store,global,0x0,4,0x1,1,+bypass,0,,
	1,1,0,0,,0x20,0,load,global,0x0,32,0x1,2,miss,0,,
	1,2,0,0,,0x30,0,store,global,0x0,32,0x2,3,+bypass,0,,
	1,3,0,0,,0x40,0,store,global,0x100,128,0xf,4,+bypass,0,,
	1,4,0,0,,0x50,0,load,global,0x200,128,0xf,5,miss,0,,
	1,5,0,0,,0x60,0,store,global,0x80,8,0x2,6,+bypass,0,,
	1,6,0,0,,0x70,0,store,global,0x80,8,0x2,7,+bypass,0,,
	1,0,0,0,,0x0,0,store,global,0x0,32,0x1,7,+wb,0,,
	EOF
	diff "$T/want" "$T/r"
	expect_eq "$(jv hits "$T/j")" 0
	expect_eq "$(jv line_misses "$T/j")" 6
	expect_eq "$(jv dram_reads "$T/j")" 5
	expect_eq "$(jv dram_writes "$T/j")" 9
	expect_eq "$(jv dram_write_bytes "$T/j")" 212
	grep -q '"write_around": 8' "$T/j"
	expect_eq "$(jv evictions "$T/j")" 0
}

@test "gc-l2: write-through writes every store on; nothing is dirty" {
	mk seq
	gc-l2 $TINY --write write-through --kernel-boundary flush --stats "$T/j" "$T/seq.gcs" >"$T/o"
	records "$T/o" | grep -c ',store,' | grep -qx 5
	expect_eq "$(jv hits "$T/j")" 1
	expect_eq "$(jv dram_reads "$T/j")" 5
	expect_eq "$(jv dram_writes "$T/j")" 9
	expect_eq "$(jv dram_write_bytes "$T/j")" 212
	grep -q '"write_through": 9' "$T/j"
	grep -q '"flush": 0' "$T/j"
	# write-evict: the same writes; the written sectors leave the L2
	gc-l2 $TINY --write write-evict --stats "$T/j" "$T/seq.gcs" >/dev/null
	expect_eq "$(jv dram_writes "$T/j")" 9
	expect_eq "$(jv dirty_sectors_left "$T/j")" 0
}

@test "gc-l2: --kernel-boundary keep keeps dirty data across kernels; --emit all annotates every request" {
	mk seq
	gc-l2 $TINY --emit all --stats "$T/j" "$T/seq.gcs" >"$T/o"
	expect_eq "$(gc-stats --dump "$T/o" | sed -n 's/^# kind //p')" requests
	records "$T/o" | cut -d, -f14 | tr '\n' ' ' >"$T/r"
	expect_eq "$(cat "$T/r")" "miss sector-miss sector-miss miss miss+wb miss hit "
	expect_eq "$(jv dram_writes "$T/j")" 2
	expect_eq "$(jv dirty_sectors_left "$T/j")" 5
	expect_eq "$(jv flushes "$T/j")" 0
	gc-stats --dump "$T/o" | grep -q '^# header l2.kernel_boundary=keep$'
	gc-stats --dump "$T/o" | grep -q '^# header l2.emit=all$'
}

@test "gc-l2: atomics are performed at the L2" {
	mk atomic
	# 1 miss: read s0, dirty; 2 hit; 3 sector miss: read s1; flush 0x3
	gc-l2 $TINY --kernel-boundary flush --stats "$T/j" "$T/atomic.gcs" >/dev/null
	expect_eq "$(jv atomics "$T/j")" 3
	expect_eq "$(jv atomic_hits "$T/j")" 1
	expect_eq "$(jv dram_reads "$T/j")" 2
	grep -q '"atomic_miss": 2' "$T/j"
	expect_eq "$(jv dram_writes "$T/j")" 2
	expect_eq "$(jv dram_write_bytes "$T/j")" 64
	# write-through: each atomic's bytes go on
	gc-l2 $TINY --write write-through --kernel-boundary flush --stats "$T/j" "$T/atomic.gcs" >/dev/null
	expect_eq "$(jv dram_writes "$T/j")" 3
	expect_eq "$(jv dram_write_bytes "$T/j")" 12
}

@test "gc-l2: a flush at every kernel end" {
	randreq 400 7 65536 >"$T/r.csv"
	gc-import "$T/r.csv" >"$T/r.gcs"
	gc-l2 --gpu volta-v100 --kernel-boundary flush --stats "$T/j" "$T/r.gcs" >"$T/o"
	expect_eq "$(jv flushes "$T/j")" 2
	expect_eq "$(jv dirty_sectors_left "$T/j")" 0
	expect_eq "$(jv kernel_count "$T/j")" 2
	# 64 KB in a 6 MB L2: no eviction, so every write-back is a flush,
	# and every kernel's dirty sectors are written once at its end
	expect_eq "$(jv evictions "$T/j")" 0
	grep -q '"eviction": 0' "$T/j"
	gc-stats --dump "$T/o" | grep -q '^# header l2.kernel_boundary=flush$'
	# the flush of kernel 1 comes before its end record
	gc-stats --dump "$T/o" | sed -n '/^1,,,,,,,kend/q; p' | grep -q ',+wb,'
}

@test "gc-l2: conservation: hits + misses, DRAM traffic by cause, slices, gc-dram" {
	randreq 20000 3 4194304 >"$T/r.csv"
	gc-import "$T/r.csv" >"$T/r.gcs"
	gc-l2 --gpu volta-v100 --sets 16 --ways 4 --kernel-boundary flush --stats "$T/j" "$T/r.gcs" >"$T/d.gcs"
	req=$(jv requests "$T/j")
	expect_eq "$req" 20000
	expect_eq "$(($(jv hits "$T/j") + $(jv misses "$T/j")))" "$req"
	expect_eq "$(($(jv sector_misses "$T/j") + $(jv line_misses "$T/j")))" "$(jv misses "$T/j")"
	expect_eq "$(($(jv reads "$T/j") + $(jv writes "$T/j") + $(jv atomics "$T/j")))" "$req"
	rd=$(sed -n '/"dram_reads_by_cause"/,/}/p' "$T/j" | awk '$2 ~ /^[0-9]/ { s += $2 } END { print s }')
	wr=$(sed -n '/"dram_writes_by_cause"/,/}/p' "$T/j" | awk '$2 ~ /^[0-9]/ { s += $2 } END { print s }')
	expect_eq "$rd" "$(jv dram_reads "$T/j")"
	expect_eq "$wr" "$(jv dram_writes "$T/j")"
	[ "$(jv evictions "$T/j")" -gt 0 ]
	[ "$(jv dram_writes "$T/j")" -gt 0 ]
	expect_eq "$(slice_sum requests "$T/j")" "$req"
	expect_eq "$(slice_sum hits "$T/j")" "$(jv hits "$T/j")"
	expect_eq "$(slice_sum dram_reads "$T/j")" "$(jv dram_reads "$T/j")"
	expect_eq "$(slice_sum dram_writes "$T/j")" "$(jv dram_writes "$T/j")"
	# gc-dram counts the same transactions and bytes from the masks
	gc-dram -o /dev/null --stats "$T/k" "$T/d.gcs"
	expect_eq "$(jv reads "$T/k")" "$(jv dram_reads "$T/j")"
	expect_eq "$(jv writes "$T/k")" "$(jv dram_writes "$T/j")"
	expect_eq "$(jv read_bytes "$T/k")" "$(jv dram_read_bytes "$T/j")"
	expect_eq "$(jv write_bytes "$T/k")" "$(jv dram_write_bytes "$T/j")"
	# gc-stats: records and bytes
	gc-stats --json "$T/d.gcs" >"$T/s"
	expect_eq "$(jv loads "$T/s")" "$(jv dram_read_records "$T/j")"
	expect_eq "$(jv stores "$T/s")" "$(jv dram_write_records "$T/j")"
	expect_eq "$(jv bytes "$T/s")" "$(($(jv dram_read_bytes "$T/j") + $(jv dram_write_bytes "$T/j")))"
}

@test "gc-l2: loads that never evict read each distinct sector once" {
	randreq 4000 11 262144 1 | gc-import >"$T/l.gcs"
	gc-l2 --gpu volta-v100 --stats "$T/j" "$T/l.gcs" >/dev/null
	expect_eq "$(jv evictions "$T/j")" 0
	expect_eq "$(jv dram_reads "$T/j")" "$(jv distinct_sectors <(gc-stats --json "$T/l.gcs"))"
	expect_eq "$(jv dram_writes "$T/j")" 0
}

@test "gc-l2: the output header records the configuration and provenance" {
	mk seq
	gc-l2 $TINY --kernel-boundary flush "$T/seq.gcs" | gc-stats --dump | grep '^# ' >"$T/h"
	grep -q '^# kind dram$' "$T/h"
	grep -q '^# optional 0x3$' "$T/h"
	grep -q "^# header provenance=hand-written: the write-policy sequence of tests/gc-l2.bats | gc-l2 --gpu volta-v100 --channels 1" "$T/h"
	grep -q '^# header gpu.l2.sets=2$' "$T/h"
	grep -q '^# header gpu.l2.ways=2$' "$T/h"
	grep -q '^# header gpu.l2.channels=1$' "$T/h"
	grep -q '^# header gpu.l2.write_alloc=lazy-fetch-on-read$' "$T/h"
	grep -q '^# header gpu.l2.partition_index=consecutive$' "$T/h"
	grep -q '^# header gpu=volta-v100$' "$T/h"
	grep -q '^# header line_size=128$' "$T/h"
	grep -q '^# header l2.kernel_boundary=flush$' "$T/h"
	# the next stage runs with the same configuration without --gpu
	gc-l2 $TINY "$T/seq.gcs" | gc-dram -o /dev/null --stats "$T/k"
	grep -q '"channels": 1,' "$T/k"
}

@test "gc-l2: the same input gives the same bytes; stdin, a file and - agree" {
	randreq 2000 5 1048576 >"$T/r.csv"
	gc-import "$T/r.csv" >"$T/r.gcs"
	gc-l2 --gpu volta-v100 "$T/r.gcs" >"$T/a"
	gc-l2 --gpu volta-v100 "$T/r.gcs" >"$T/b"
	cmp "$T/a" "$T/b"
	gc-l2 --gpu volta-v100 <"$T/r.gcs" >"$T/c"
	gc-l2 --gpu volta-v100 - <"$T/r.gcs" >"$T/d"
	# the provenance holds the command line; the records are the same
	expect_same <(records "$T/a") <(records "$T/c") stdin
	expect_same <(records "$T/a") <(records "$T/d") -
	gc-l2 --gpu volta-v100 -o "$T/e" "$T/r.gcs"
	expect_same <(records "$T/a") <(records "$T/e") "-o"
}

@test "gc-l2: gzip input gives the same output as plain; -z writes gzip" {
	mk seq
	gzip -c "$T/seq.gcs" >"$T/seq.gcs.gz"
	gc-l2 $TINY <"$T/seq.gcs" >"$T/a"
	gc-l2 $TINY <"$T/seq.gcs.gz" >"$T/b"
	cmp "$T/a" "$T/b"
	gc-l2 $TINY -z <"$T/seq.gcs" >"$T/c"
	gzip -t "$T/c"
	expect_same <(records "$T/c") <(records "$T/a") "-z"
}

@test "gc-l2: a full disk is an error" {
	mk seq
	sh_status 1 "gc-l2 $TINY '$T/seq.gcs' >/dev/full"
	expect_match "$(cat "$T/err")" "^gc-l2: .*No space left on device"
}

@test "gc-l2: bad input: truncated, wrong kind, bad mask, other line size" {
	mk seq
	head -c 500 "$T/seq.gcs" >"$T/cut.gcs"
	sh_status 1 "gc-l2 $TINY <'$T/cut.gcs'"
	expect_match "$(cat "$T/err")" "^gc-l2: stdin: record [0-9]+ \(offset [0-9]+\): "
	gc-import "$FIX/l2/dram.csv" >"$T/d.gcs"
	sh_status 1 "gc-l2 '$T/d.gcs'"
	expect_eq "$(cat "$T/err")" "gc-l2: $T/d.gcs: gc-l2 reads requests; this stream holds DRAM transactions"
	[ ! -s "$T/out" ]
	sed 's/,0x2,6,,0,,$/,0x30,6,,0,,/' "$FIX/l2/seq.csv" | gc-import >"$T/m.gcs"
	sh_status 1 "gc-l2 $TINY '$T/m.gcs'"
	expect_match "$(cat "$T/err")" "^gc-l2: $T/m.gcs: record 8 \(offset [0-9]+\): field mask: 0x30 is not a set of the 4 sectors of a 128-byte line$"
	sed 's/^# header line_size=128$/# header line_size=64/' "$FIX/l2/seq.csv" | gc-import >"$T/l.gcs"
	sh_status 1 "gc-l2 $TINY '$T/l.gcs'"
	expect_match "$(cat "$T/err")" "header key line_size: '64' is not l2.line 128"
	[ ! -s "$T/out" ]
	# every request gc-l1 saw (--emit all) is not what reaches the L2
	sed 's/^# header line_size=128$/# header l1.emit=all/' "$FIX/l2/seq.csv" | gc-import >"$T/a.gcs"
	sh_status 1 "gc-l2 $TINY '$T/a.gcs'"
	expect_match "$(cat "$T/err")" "header key l1.emit=all: this stream holds every request gc-l1 saw"
	[ ! -s "$T/out" ]
}

@test "gc-l2: bad configurations are usage errors" {
	mk seq
	sh_status 2 "gc-l2 --gpu ampere-a100 --partition-index ipoly '$T/seq.gcs'"
	expect_match "$(cat "$T/err")" "16, 32 or 64"
	[ ! -s "$T/out" ]
	sh_status 2 "gc-l2 --gpu volta-v100 --write read-only '$T/seq.gcs'"
	expect_match "$(cat "$T/err")" "read-only"
	sh_status 2 "gc-l2 --emit some '$T/seq.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-l2: --emit: 'some' is not dram, all or none"
	sh_status 2 "gc-l2 --index no-such '$T/seq.gcs'"
	expect_match "$(cat "$T/err")" "^gc-l2: --index: "
}

@test "gc-l2: end to end on the real BFS trace: stable, deterministic, tee-transparent" {
	for t in gc-sched gc-coalesce gc-l1; do
		command -v "$t" >/dev/null || skip "$t is not built"
	done
	tr="$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g"
	[ -e "$tr" ] || skip "no BFS trace"
	# The same command lines (the provenance holds them) in three
	# directories; the third with tee before and after gc-l2.
	chain="gc-import '$tr' | gc-sched --gpu volta-v100 | gc-coalesce | gc-l1"
	mkdir "$T/1" "$T/2" "$T/3"
	sh_status 0 "cd '$T/1' && $chain | gc-l2 --kernel-boundary flush --stats j | gc-dram --stats k >o"
	sh_status 0 "cd '$T/2' && $chain | gc-l2 --kernel-boundary flush --stats j | gc-dram --stats k >o"
	cmp "$T/1/o" "$T/2/o"
	cmp "$T/1/j" "$T/2/j"
	cmp "$T/1/k" "$T/2/k"
	sh_status 0 "cd '$T/3' && $chain | tee mid | gc-l2 --kernel-boundary flush --stats j | tee mid2 | gc-dram --stats k >o"
	cmp "$T/1/o" "$T/3/o"
	cmp "$T/1/j" "$T/3/j"
	cmp "$T/1/k" "$T/3/k"
	cmp "$T/3/mid2" "$T/3/o"
	mv "$T/1/j" "$T/j1"
	mv "$T/1/k" "$T/k1"
	mv "$T/3/mid" "$T/mid"
	req=$(jv requests "$T/j1")
	[ "$req" -gt 0 ]
	expect_eq "$(($(jv hits "$T/j1") + $(jv misses "$T/j1")))" "$req"
	expect_eq "$(jv reads "$T/k1")" "$(jv dram_reads "$T/j1")"
	expect_eq "$(jv writes "$T/k1")" "$(jv dram_writes "$T/j1")"
	expect_eq "$(jv records <(gc-stats --json "$T/mid"))" "$req"
	expect_eq "$(jv kernel_count "$T/j1")" 16
	expect_eq "$(jv flushes "$T/j1")" 16
	expect_eq "$(jv dirty_sectors_left "$T/j1")" 0
}

@test "gc-l2: --cache takes one slice as a GPGPU-Sim cache string" {
	gc-gen -n 64 matmul | gc-sched --gpu volta-v100 | gc-coalesce | gc-l1 >"$T/r.gcs"
	# the V100 preset's own slice, spelled as its gpgpusim.config does
	gc-l2 --cache S:32:128:24,L:B:m:L:P,A:192:4,32:0,32 --stats "$T/a.json" "$T/r.gcs" >"$T/a.gcs"
	gc-l2 --stats "$T/b.json" "$T/r.gcs" >"$T/b.gcs"
	expect_same <(gc-stats --dump "$T/a.gcs" | grep -v '^#') <(gc-stats --dump "$T/b.gcs" | grep -v '^#')
	# twice the sets: a 12 MB L2
	gc-l2 --cache S:64:128:24,L:B:m:L:L,A:192:4,32:0,32 --stats "$T/c.json" "$T/r.gcs" >/dev/null
	gc-stats --merge "$T/b.json" "$T/c.json" >"$T/m.csv"
	for k in config.sets config.size; do
		col=$(head -1 "$T/m.csv" | tr , '\n' | grep -nx "$k" | cut -d: -f1)
		[ -n "$col" ]
		cut -d, -f"$col" "$T/m.csv" | tail -2 | tr '\n' ' ' >>"$T/got"
	done
	expect_eq "$(cat "$T/got")" "32 64 6291456 12582912 "
	run_status 2 gc-l2 --cache S:x "$T/r.gcs"
	expect_match "$output" "--cache: bad value 'S:x' for key 'l2.cache'"
}

@test "gc-l2: the preset's l2.kernel_flush sets the default; --kernel-boundary (and the deprecated --flush, --warm) override it" {
	gc-gen -n 32 matmul --kernels 2 | gc-sched --gpu volta-v100 | gc-coalesce | gc-l1 >"$T/r.gcs"
	sed 's/^l2.kernel_flush = no/l2.kernel_flush = yes/' "$GC_ROOT/share/gpus/volta-v100.gpu" >"$T/flushing.gpu"
	gc-l2 --flush "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/flush"
	gc-l2 --warm "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/warm"
	gc-l2 "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/default"
	gc-l2 --gpu "$T/flushing.gpu" "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/preset"
	gc-l2 --gpu "$T/flushing.gpu" --warm "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/preset-warm"
	expect_differ "$T/flush" "$T/warm" "flush and warm"
	cmp "$T/default" "$T/warm"
	cmp "$T/preset" "$T/flush"
	cmp "$T/preset-warm" "$T/warm"
	gc-l2 --kernel-boundary flush "$T/r.gcs" | gc-stats --dump | grep -v '^#' | cmp - "$T/flush"
	gc-l2 --gpu "$T/flushing.gpu" --kernel-boundary keep "$T/r.gcs" | gc-stats --dump | grep -v '^#' | cmp - "$T/warm"
	# the old names still work, and say they are deprecated
	gc-l2 --warm "$T/r.gcs" 2>"$T/e" >/dev/null
	expect_eq "$(cat "$T/e")" "gc-l2: --warm is deprecated: use --kernel-boundary keep"
	gc-l2 --flush "$T/r.gcs" 2>"$T/e" >/dev/null
	expect_eq "$(cat "$T/e")" "gc-l2: --flush is deprecated: use --kernel-boundary flush"
	sh_status 2 "gc-l2 --kernel-boundary sometimes '$T/r.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-l2: --kernel-boundary: 'sometimes' is not flush or keep"
}

@test "gc-l2: the output rule: --emit none, --report FILE (gc(7))" {
	gc-gen -n 32 matmul | gc-sched --gpu volta-v100 | gc-coalesce | gc-l1 >"$T/r.gcs"
	output_rule "gc-l2 '$T/r.gcs'"
	# the requests of the report are the input's data records
	n=$(records "$T/r.gcs" | wc -l | tr -d ' ')
	expect_match "$(sed -n 1p "$T/rule.r")" "B: $n requests, "
	sh_status 2 "gc-l2 --emit l2 '$T/r.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-l2: --emit: 'l2' is not dram, all or none"
}

# --ways-sweep (lib/model/waysweep.c) against separate runs: the totals
# (L2TOT, the CSV's columns) and each kernel's counts (L2KER, the JSON's),
# as lines "W total ..." and "W kernel ID ...", sorted.
L2TOT="hits misses sector_misses line_misses sectors.hits read_hits write_hits atomic_hits dram_reads"
L2KER="hits misses sectors.hits dram_reads"

# l2sep FILE OPTS...: separate gc-l2 runs of 1, 2, 3 and 8 ways.
l2sep() {
	local f=$1 w
	shift
	for w in 1 2 3 8; do
		gc-l2 "$@" --ways $w --emit none -o /dev/null --stats "$T/sep$w.json" "$f" || echo "failed $w"
	done
	{
		gc-stats --merge "$T"/sep[1-8].json | awk -F, -v k="$L2TOT" '
			BEGIN { n = split(k, K, " ") }
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ s = $c["config.ways"] " total"; for (i = 1; i <= n; i++) s = s " " $c[K[i]]; print s }'
		gc-stats --merge --long "$T"/sep[1-8].json | awk -F, -v k="$L2KER" '
			BEGIN { n = split(k, K, " ") }
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ w = $1; sub(/.*sep/, "", w); sub(/\.json$/, "", w)
			  s = w " kernel " $c["kernel"]; for (i = 1; i <= n; i++) s = s " " $c[K[i]]; print s }'
	} | sort
}

# l2one FILE OPTS...: the sweep of the same, in the same form.
l2one() {
	local f=$1
	shift
	gc-l2 "$@" --ways-sweep 1..3,8 --stats "$T/sw.json" "$f" >"$T/sw.csv" || echo failed
	{
		awk -F, -v k="$L2TOT" 'BEGIN { n = split(k, K, " ") }
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ s = $c["ways"] " total"; for (i = 1; i <= n; i++) s = s " " $c[K[i]]; print s }' "$T/sw.csv"
		gc-stats --merge --arrays "$T/sw.json" | awk -F, -v k="$L2KER" '
			BEGIN { n = split(k, K, " ") }
			NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
			{ for (i = 1; i <= NF; i++) v[h[i]] = $i }
			END { for (s = 0; ("sweep." s ".ways") in v; s++)
				for (j = 0; ("sweep." s ".kernels." j ".id") in v; j++) {
					p = "sweep." s ".kernels." j "."
					o = v["sweep." s ".ways"] " kernel " v[p "id"]
					for (i = 1; i <= n; i++) o = o " " v[p K[i]]
					print o } }'
	} | sort
}

@test "gc-l2 --ways-sweep: equal to separate runs of 1, 2, 3 and 8 ways, per kernel, on BFS, gc-gen and random streams, under every policy it takes" {
	# BFS through the V100's L1 to 16 slices of 16 sets: write-back and
	# write-validate (the preset), kept across kernels; write-through and
	# write-allocate, flushed
	gc-import "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" 2>/dev/null |
		gc-sched --gpu volta-v100 2>/dev/null | gc-coalesce | gc-l1 >"$T/bfs.gcs"
	o="--channels 8 --sub-partitions 2 --sets 16"
	for p in "--kernel-boundary keep" \
		"--write write-through --write-alloc write-allocate --kernel-boundary flush"; do
		# shellcheck disable=SC2086
		l2sep "$T/bfs.gcs" $o $p >"$T/bfs.sep"
		# shellcheck disable=SC2086
		l2one "$T/bfs.gcs" $o $p >"$T/bfs.one"
		expect_same "$T/bfs.sep" "$T/bfs.one"
	done
	# 4 associativities: a total and 16 kernels each, and the ways matter
	expect_eq "$(wc -l <"$T/bfs.one")" 68
	expect_eq "$(awk '$2 == "total" { print $3 }' "$T/bfs.one" | sort -u | wc -l)" 4
	# a transpose through the V100's write-back L1 (its write-backs are
	# whole lines), to 4 slices of 16 sets, write-validate
	gc-gen transpose -n 256 --gpu volta-v100 | gc-sched | gc-coalesce |
		gc-l1 --write write-back --write-alloc write-allocate >"$T/tr.gcs"
	o="--channels 2 --sub-partitions 2 --partition-index consecutive --sets 16"
	# shellcheck disable=SC2086
	expect_same <(l2sep "$T/tr.gcs" $o) <(l2one "$T/tr.gcs" $o)
	# loads, full and partial stores and atomics at random over 32 lines
	# in 2 sets of one slice: write-validate's partial sectors;
	# fetch-on-write's reads under local-write-back
	randreq 4000 13 4096 | gc-import >"$T/r.gcs"
	o="--gpu volta-v100 --channels 1 --sub-partitions 1 --partition-index consecutive --sets 2 --index linear"
	for p in "--write-alloc lazy-fetch-on-read" "--write local-write-back --write-alloc fetch-on-write"; do
		# shellcheck disable=SC2086
		expect_same <(l2sep "$T/r.gcs" $o $p) <(l2one "$T/r.gcs" $o $p)
	done
}

@test "gc-l2 --ways-sweep: what breaks the stack property is refused, saying why (exit 2)" {
	randreq 400 3 4096 | gc-import >"$T/r.gcs"
	o="--gpu volta-v100 --channels 1 --sub-partitions 1 --partition-index consecutive --sets 2 --index linear"
	# a store under write-evict or no-write-allocate, the first at record
	# 5 (the kernel's begin and name, two loads); nothing on stdout
	sh_status 2 "gc-l2 $o --write write-evict --ways-sweep 1..4 '$T/r.gcs'"
	expect_match "$(cat "$T/err")" "r.gcs: record 5: --ways-sweep refuses this store: .*only in the caches that hold it \(write-evict\)"
	expect_empty "$(cat "$T/out")"
	sh_status 2 "gc-l2 $o --write-alloc no-write-allocate --ways-sweep 1..4 '$T/r.gcs'"
	expect_match "$(cat "$T/err")" "record 5: .*hold one of its sectors \(no-write-allocate\)"
	expect_empty "$(cat "$T/out")"
	# shellcheck disable=SC2086
	run_status 2 gc-l2 $o --replacement fifo --ways-sweep 1..4 "$T/r.gcs"
	expect_match "$output" "not LRU"
	# the preset's L2 prefetcher; timed input (sectors in flight)
	{ cat "$GC_ROOT/share/gpus/volta-v100.gpu"; echo "l2.prefetch = stream"; } >"$T/pf.gpu"
	run_status 2 gc-l2 --gpu "$T/pf.gpu" --ways-sweep 1..4 "$T/r.gcs"
	expect_match "$output" "the L2 prefetcher fills the lines a cache lacks"
	gc-gen transpose -n 32 --gpu volta-v100 | gc-sched | gc-coalesce | gc-l1 --timing >"$T/t.gcs"
	run_status 2 gc-l2 --ways-sweep 1..4 "$T/t.gcs"
	expect_match "$output" "times are cycles \(gc-l1 --timing\)"
	for x in "--ways 4" "--emit none" "--prefetch none"; do
		# shellcheck disable=SC2086
		run_status 2 gc-l2 --ways-sweep 1..4 $x "$T/r.gcs"
	done
	for bad in 0 4..2 1..1025 x; do
		run_status 2 gc-l2 --ways-sweep "$bad" "$T/r.gcs"
	done
	# loads and atomics are fine under either
	randreq 400 3 4096 1 | gc-import >"$T/l.gcs"
	# shellcheck disable=SC2086
	run_status 0 gc-l2 $o --write write-evict --write-alloc no-write-allocate --ways-sweep 1,4 "$T/l.gcs"
	expect_eq "$(echo "$output" | wc -l)" 3
}

@test "gc-l2: LRU holds when a set's stamps are renumbered (past 32,767 uses of one set)" {
	# Set 0 of TINY with 4 ways: X (way 0) and Y (way 1) filled, X used
	# again, then C and B (ways 2, 3) 20,000 times each, which takes the
	# set's clock past 0x7fff and renumbers its stamps; E evicts Y, the
	# least recent, and X still hits.  Were the order of X and Y lost at
	# the renumbering, E would take the lower way (X) and the last X miss.
	awk 'BEGIN {
		print "# gc-stats dump 1"; print "# kind requests"; print "# version 1.0"
		print "# record_size 32"; print "# required 0x0"; print "# optional 0x1"
		print "kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info"
		print "1,,,,,,,kbegin,,,,,,,,\"r\",grid=1x1x1 block=32x1x1 regs=0 shmem=0"
		x = 1048576; y = x + 256; c = x + 512; b = x + 768; e = x + 1024
		n = 0
		a[n++] = x; a[n++] = y; a[n++] = x
		for (i = 0; i < 20000; i++) { a[n++] = c; a[n++] = b }
		a[n++] = e; a[n++] = x
		for (i = 0; i < n; i++)
			printf "1,0,0,0,,0x100,%d,load,global,%d,128,15,%d,,0,,\n", i, a[i], i
		print "1,,,,,,,kend,,,,,,,,,records=" n
		print ",,,,,,,end,,,,,,,,,records=" n + 3 " data=" n
	}' | gc-import >"$T/lru.gcs"
	gc-l2 $TINY --ways 4 --emit none --stats "$T/j" "$T/lru.gcs" >/dev/null
	expect_eq "$(jv requests "$T/j") $(jv hits "$T/j") $(jv evictions "$T/j")" "40005 40000 1" \
		"requests, hits, evictions"
}
