#!/usr/bin/env bats
# The prefetchers (issue 21): gc-l1 --prefetch stride|mta and gc-l2
# --prefetch stream|nextline against hand-worked streams, a random gather,
# and a real trace; the prefetch flag of gc-stream(5) counted downstream.

load helpers

L1FIX="$FIX/l1"

# mk NAME: the request stream $T/NAME.gcs from the text on stdin (format
# in tests/fixtures/l1/mkreq.awk: "K id name threads shmem regs" begins a
# kernel; "sm block warp seq op addr mask bytes [time [space [flags [pc]]]]").
mk() {
	awk -v SECTOR=32 -f "$L1FIX/mkreq.awk" >"$T/$1.csv" &&
		gc-import -f csv "$T/$1.csv" >"$T/$1.gcs"
}

# keys JSON KEY...: the values of the keys of a --stats file, in order, on
# one line (a key of an object with a dot: prefetch.issued; the first
# occurrence of each path).
keys() {
	awk -v want="$*" '
		BEGIN { n = split(want, k, " "); for (i = 2; i <= n; i++) w[k[i]] = i }
		{ line = $0; sub(/^[ \t]+/, "", line) }
		line ~ /^[}\]]/ { d--; next }
		match(line, /^"[^"]*": /) {
			name = substr(line, 2, RLENGTH - 4); val = substr(line, RLENGTH + 1)
			sub(/,$/, "", val); gsub(/"/, "", val)
			path = d ? stack[d] "." name : name
			if (val == "{" || val == "[") { stack[++d] = path; next }
			if ((path in w) && !(path in got)) got[path] = val
			next
		}
		NR > 1 && line ~ /[{[]$/ { stack[d + 1] = stack[d] ".#"; d++ }
		END { s = ""; for (i = 2; i <= n; i++) s = s (i > 2 ? " " : "") (k[i] in got ? got[k[i]] : "no-" k[i]); print s }' "$1"
}

# Two streams, one PC each, of one warp: lines 0..11 of 0x100000 (PC 0x10)
# and of 0x800000 (PC 0x20), interleaved, one instruction per line pair.
two_streams() {
	{
		echo "K 1 k 32 0 8"
		for i in $(seq 0 11); do
			printf "0 0 0 %d load 0x%x 0xf 128 0 global 0 0x10\n" "$i" $((0x100000 + i * 128))
			printf "0 0 0 %d load 0x%x 0xf 128 0 global 0 0x20\n" "$i" $((0x800000 + i * 128))
		done
	} | mk two
}

BIG="--sets 64 --ways 4 --index linear"

@test "stride, degree d: each stream misses its first 3 lines only; the counts by hand" {
	# Per stream of N = 12 lines at stride 1 (distance 1): line 0 misses
	# (the PC's entry is made), line 1 misses (stride 1 learnt), line 2
	# misses and confirms it: lines 3..2+d are prefetched.  Each later
	# line k hits its prefetched line and prefetches k+d, the one line of
	# k+1..k+d not yet there.  So 3 misses and 9 hits a stream, whatever
	# d; issued N-3+d = 9+d (lines 3..11+d), useful 9, and the d lines
	# past the end are flushed unused at the kernel end: useless d.
	# Two streams: misses 6, hits 18, issued 18+2d, useful 18, useless 2d;
	# accuracy 18/(18+2d), coverage 18/(18+6) = 0.75.
	two_streams
	for d in 1 4; do
		gc-l1 $BIG --prefetch stride --prefetch-degree $d --stats "$T/s$d.json" "$T/two.gcs" >"$T/o$d.gcs"
		expect_eq "$(keys "$T/s$d.json" hits misses prefetch.issued prefetch.useful prefetch.late \
			prefetch.useless prefetch.coverage prefetch.accuracy |
			awk -v d=$d '{ $8 = ($8 - 18 / (18 + 2 * d))^2 < 1e-12; print }')" \
			"18 6 $((18 + 2 * d)) 18 0 $((2 * d)) 0.75 1" "degree $d"
		# the stream to L2: the 6 misses and every prefetch, flagged
		gc-stats --stats "$T/g$d.json" "$T/o$d.gcs" >/dev/null
		expect_eq "$(keys "$T/g$d.json" loads prefetches optional)" "$((24 + 2 * d)) $((18 + 2 * d)) 17"
	done
	# mta: one warp per PC: its per-warp stride, the same prefetches
	gc-l1 $BIG --prefetch mta --prefetch-degree 4 "$T/two.gcs" >"$T/m.gcs"
	expect_same <(gc-stats --dump "$T/m.gcs" | grep -v '^#') <(gc-stats --dump "$T/o4.gcs" | grep -v '^#')
}

@test "useful, useless by eviction, accuracy and coverage on a hand-built stream" {
	# One set of two ways, LRU, degree 1, the L1 kept at the kernel end.
	#   A 0, A 1, A 2: misses; A 2 confirms stride 1: prefetch 3 {2,3}
	#   B 100: miss, evicts 2 {3,100};  B 200: miss, evicts 3 unused
	#   (useless 1) {100,200};  A 3: miss, stride confirmed: prefetch 4
	#   {3,4};  A 4: hit on a prefetched line (useful 1), prefetch 5 {4,5}
	# issued 3, useful 1, useless 1, line 5 left unused; misses 6, hits 1;
	# accuracy 1/3, coverage 1/(1+6).
	mk ev <<-EOF
	K 1 k 32 0 8
	0 0 0 0 load 0x0 0xf 128 0 global 0 0xa
	0 0 0 1 load 0x80 0xf 128 0 global 0 0xa
	0 0 0 2 load 0x100 0xf 128 0 global 0 0xa
	0 0 0 3 load 0x3200 0xf 128 0 global 0 0xb
	0 0 0 4 load 0x6400 0xf 128 0 global 0 0xb
	0 0 0 5 load 0x180 0xf 128 0 global 0 0xa
	0 0 0 6 load 0x200 0xf 128 0 global 0 0xa
	EOF
	gc-l1 --sets 1 --ways 2 --index linear --kernel-boundary keep --prefetch stride \
		--emit none --stats "$T/j" "$T/ev.gcs" >/dev/null
	expect_eq "$(keys "$T/j" hits misses prefetch.issued prefetch.useful prefetch.useless)" "1 6 3 1 1"
	expect_eq "$(keys "$T/j" prefetch.accuracy prefetch.coverage |
		awk '{ print ($1 - 1/3)^2 < 1e-12, ($2 - 1/7)^2 < 1e-12 }')" "1 1"
	# --emit all: every request with its outcome, each prefetch (flag 2,
	# whole line, no outcome) right after its trigger: lines 3, 4, 5
	gc-l1 --sets 1 --ways 2 --index linear --kernel-boundary keep --prefetch stride \
		--emit all "$T/ev.gcs" >"$T/all.gcs"
	expect_eq "$(gc-stats --dump "$T/all.gcs" | awk -F, '!/^#/ && $8 == "load" {
		sub(/\/.*/, "", $14); printf "%s%s:%s:%s", (n++ ? " " : ""), $10, $15, $14 }')" \
		"0x0:0:miss 0x80:0:miss 0x100:0:miss 0x180:2: 0x3200:0:miss 0x6400:0:miss 0x180:0:miss 0x200:2: 0x200:0:hit 0x280:2:"
	# --ways-sweep models no prefetcher: refused with one
	sh_status 2 "gc-l1 --ways-sweep 1..4 --prefetch stride '$T/ev.gcs'"
	expect_match "$(cat "$T/err")" "not with --prefetch"
}

@test "timing: prefetches take free MSHRs only, not the per-warp limit's; late ones merge" {
	two_streams
	# one MSHR: the demand misses hold it, no prefetch ever finds one free
	gc-l1 $BIG --timing --sigma 0 --mshr 1 --mshr-per-warp 1 --prefetch stride --emit none \
		--stats "$T/one.json" "$T/two.gcs" >/dev/null
	expect_eq "$(keys "$T/one.json" prefetch.issued misses)" "0 24"
	# one MSHR per warp, 64 in all: the warp's misses wait for each other,
	# its prefetches do not; every prefetch is used, met in flight, or
	# flushed unused at the kernel end
	gc-l1 $BIG --timing --sigma 0 --mshr-per-warp 1 --prefetch stride --prefetch-degree 4 \
		--emit none --stats "$T/t.json" "$T/two.gcs" >/dev/null
	keys "$T/t.json" prefetch.issued prefetch.useful prefetch.late prefetch.useless >"$T/v"
	read -r issued useful late useless <"$T/v"
	expect_eq "$issued" 26 "issued: lines 3..15 of each stream"
	expect_eq "$((useful + late + useless))" "$issued"
	[ "$late" -gt 0 ]
}

@test "random gather: the stride prefetchers issue almost nothing useful" {
	# 48 loads of one PC at lines of a seeded LCG: no stride repeats, so no
	# entry is ever confirmed (checked here on the lines themselves).
	awk 'BEGIN { x = 7; print "K 1 k 32 0 8"
		for (i = 0; i < 48; i++) { x = (x * 1103515245 + 12345) % 2147483648
			l[i] = int(x / 65536) % 4096
			printf "0 0 %d 0 load 0x%x 0xf 128 0 global 0 0x30\n", i % 32, l[i] * 128 }
		for (i = 2; i < 48; i++) if (l[i] - l[i-1] == l[i-1] - l[i-2]) print "repeat" > "/dev/stderr" }' |
		mk rnd 2>"$T/rep"
	expect_empty "$(cat "$T/rep")" "repeated strides"
	for p in stride mta; do
		gc-l1 $BIG --prefetch $p --prefetch-degree 4 --emit none --stats "$T/$p.json" "$T/rnd.gcs" >/dev/null
		expect_eq "$(keys "$T/$p.json" prefetch.issued prefetch.useful)" "0 0" "$p"
	done
	# gc-gen's gather: only its index and output streams are strided; the
	# random loads it is made of leave the prefetchers' coverage < 5%
	gc-gen -n 8192 gather | gc-sched --gpu volta-v100 2>/dev/null | gc-coalesce |
		gc-l1 --prefetch stride --prefetch-degree 4 --emit none --stats "$T/g.json" >/dev/null
	expect_eq "$(keys "$T/g.json" prefetch.coverage | awk '{ print ($1 > 0 && $1 < 0.05) }')" 1 "coverage"
}

@test "a real trace: issued = useful + late + useless = the flagged records; gc-l2 sees them" {
	gc-import "$FIX/traces/accelsim-v3-volta-bfs-rodinia/kernelslist.g" 2>/dev/null |
		gc-sched 2>/dev/null | gc-coalesce >"$T/bfs.gcs"
	for p in stride mta; do
		gc-l1 --prefetch $p --prefetch-degree 4 --stats "$T/$p.json" "$T/bfs.gcs" >"$T/$p.gcs"
		keys "$T/$p.json" prefetch.issued prefetch.useful prefetch.late prefetch.useless misses >"$T/v"
		read -r issued useful late useless misses <"$T/v"
		[ "$useful" -gt 1000 ]
		expect_eq "$((useful + late + useless))" "$issued" "$p: every prefetch accounted for (flushed at kernel end)"
	done
	# the stride prefetches reach gc-l2 as its l1_prefetches
	gc-l2 --emit none --stats "$T/l2.json" "$T/stride.gcs" >/dev/null
	expect_eq "$(keys "$T/l2.json" l1_prefetches)" "$(keys "$T/stride.json" prefetch.issued)" "gc-l2"
	# fewer L1 misses than without (mta's, the last)
	gc-l1 --emit none --stats "$T/none.json" "$T/bfs.gcs" >/dev/null
	[ "$(keys "$T/none.json" misses)" -gt "$misses" ]
}

@test "gc-l2 nextline and stream prefetchers: the counts by hand" {
	# Loads of lines 0..7 of one PC.  nextline, degree 1: line 0 misses and
	# prefetches 1; each line k then hits a prefetched line and prefetches
	# k+1: misses 1, hits 7, issued 8, useful 7 (line 8 unused).
	# stream, window 4, degree 2: 0 misses (a stream begins), 1 misses
	# (direction up): prefetch 2, 3; 2 hits: 4, 5; 3: 6, 7; 4: 8 (9 is 5
	# ahead of 4, past the window); 5: 9; 6: 10; 7: 11.  misses 2, hits 6,
	# issued 10, useful 6; accuracy 0.6, coverage 6/(6+2) = 0.75.
	{
		echo "K 1 k 32 0 8"
		for i in $(seq 0 7); do printf "0 0 0 %d load 0x%x 0xf 128 0 global 0 0x40\n" "$i" $((0x40000 + i * 128)); done
	} | mk seq
	gc-l2 --prefetch nextline --kernel-boundary keep --emit none --stats "$T/n.json" "$T/seq.gcs" >/dev/null
	expect_eq "$(keys "$T/n.json" hits misses prefetch.issued prefetch.useful prefetch.useless dram_reads_by_cause.prefetch)" \
		"7 1 8 7 0 32"
	gc-l2 --prefetch stream --prefetch-window 4 --prefetch-degree 2 --kernel-boundary keep \
		--stats "$T/s.json" "$T/seq.gcs" >"$T/d.gcs"
	expect_eq "$(keys "$T/s.json" hits misses prefetch.issued prefetch.useful prefetch.accuracy prefetch.coverage)" \
		"6 2 10 6 0.6 0.75"
	gc-stats --stats "$T/d.json" "$T/d.gcs" >/dev/null
	expect_eq "$(keys "$T/d.json" records prefetches)" "12 10"
	# --emit all (nextline): each request, then the prefetch it caused
	gc-l2 --prefetch nextline --kernel-boundary keep --emit all "$T/seq.gcs" >"$T/all.gcs"
	expect_eq "$(gc-stats --dump "$T/all.gcs" | awk -F, '!/^#/ && $8 == "load" {
		printf "%s%s:%s:%s", (n++ ? " " : ""), $10, $15, $14 }')" \
		"0x40000:0:miss 0x40080:2: 0x40080:0:hit 0x40100:2: 0x40100:0:hit 0x40180:2: 0x40180:0:hit 0x40200:2: 0x40200:0:hit 0x40280:2: 0x40280:0:hit 0x40300:2: 0x40300:0:hit 0x40380:2: 0x40380:0:hit 0x40400:2:"
}

@test "gc-l2 prefetches on gc-l1 --timing's stream are pending fills: met in flight, late, by hand" {
	# volta-v100: mem.dram_latency 132.  nextline, one line each load:
	#   t 100 0x40000 misses (arrives 232), prefetches 0x40080 (232)
	#   t 150 0x40080: the prefetched line, its sectors in flight: late
	#         (a hit by result, its 4 sectors merged); prefetches 0x40100 (282)
	#   t 300 0x40100: arrived: useful; prefetches 0x40180, never used
	# issued 3, useful 1, late 1, useless 0 (kept); accuracy 2/3; coverage
	# 2 / (useful 1 + misses 2: the miss and the late one).  Without the
	# timing header the times are no cycles: useful 2, late 0.
	rows() {
		printf '# gc-stats dump 1\n# kind requests\n# version 1.0\n'
		printf '# header line_size=128\n# header sector_size=32\n'
		[ -z "$1" ] || printf '# header %s\n' "$1"
		echo 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info'
		echo '1,,,,,,,kbegin,,,,,,,,k,grid=1x1x1 block=32x1x1 regs=16 shmem=0'
		echo '1,0,0,0,,0x40,0,load,global,0x40000,128,0xf,100,,0,,'
		echo '1,0,0,0,,0x40,1,load,global,0x40080,128,0xf,150,,0,,'
		echo '1,0,0,0,,0x40,2,load,global,0x40100,128,0xf,300,,0,,'
		echo '1,,,,,,,kend,,,,,,,,,records=3'
		echo ',,,,,,,end,,,,,,,,,records=6 data=3'
	}
	rows l1.model=timing | gc-import -f csv >"$T/t.gcs"
	gc-l2 --gpu volta-v100 --prefetch nextline --kernel-boundary keep --emit none \
		--stats "$T/t.json" "$T/t.gcs" >/dev/null
	expect_eq "$(keys "$T/t.json" config.miss_latency hits misses prefetch.issued prefetch.useful prefetch.late \
		prefetch.useless prefetch.accuracy prefetch.coverage sectors.loads.merged)" \
		"132 2 1 3 1 1 0 0.666667 0.666667 4"
	rows | gc-import -f csv >"$T/u.gcs"
	gc-l2 --gpu volta-v100 --prefetch nextline --kernel-boundary keep --emit none \
		--stats "$T/u.json" "$T/u.gcs" >/dev/null
	expect_eq "$(keys "$T/u.json" config.miss_latency prefetch.useful prefetch.late sectors.loads.merged)" "0 2 0 0"
}

@test "mta: the inter-warp stride across blocks, and a stride promoted after three warps (hand-worked)" {
	# Two blocks of 8 warps (256 threads), warp w of block b loading line
	# 8b + w once (PC 0x50): mta numbers the warps 8b + w, so the
	# inter-warp stride is 1 line a warp.  Warps 0..3 miss (0 makes the
	# entry, 1 learns stride 1, 2 and 3 confirm it), then warp 3
	# prefetches line 4 (degree 1) and each later warp k hits and
	# prefetches k+1: misses 4, hits 12, issued 13 (lines 4..16), useful
	# 12, useless 1 (line 16, flushed).
	{
		echo "K 1 k 256 0 8 2"
		for b in 0 1; do for w in $(seq 0 7); do
			printf "0 %d %d 0 load 0x%x 0xf 128 0 global 0 0x50\n" "$b" "$w" $(((8 * b + w) * 128))
		done; done
	} | mk ip
	gc-l1 $BIG --prefetch mta --emit none --stats "$T/ip.json" "$T/ip.gcs" >/dev/null
	expect_eq "$(keys "$T/ip.json" misses hits prefetch.issued prefetch.useful prefetch.useless)" "4 12 13 12 1"
	# Warps 0..3 of one block, one after another, each loading 4
	# consecutive lines from its own base (lines 0, 1000, 5000, 9000; no
	# inter-warp stride twice the same).  Warps 0, 1, 2 each miss 3 lines
	# (their own stride learnt and confirmed at the third, which prefetches
	# the fourth: a hit); their confirmations are three votes for stride 1
	# at PC 0x60, promoted at warp 2's third line.  Warp 3 prefetches from
	# its first line on: 1 miss, 3 hits.  misses 10, hits 6; issued 10
	# (2, 2, 2, 4), useful 6, useless 4 (each warp's last prefetch).  The
	# per-PC stride sees the four runs as one stream broken three times:
	# 3 misses and a hit each, misses 12.
	{
		echo "K 1 k 128 0 8"
		s=0
		for base in 0 1000 5000 9000; do for i in 0 1 2 3; do
			printf "0 0 %d %d load 0x%x 0xf 128 0 global 0 0x60\n" "$s" "$i" $(((base + i) * 128))
		done; s=$((s + 1)); done
	} | mk gs
	gc-l1 $BIG --prefetch mta --emit none --stats "$T/gs.json" "$T/gs.gcs" >/dev/null
	expect_eq "$(keys "$T/gs.json" misses hits prefetch.issued prefetch.useful prefetch.useless)" "10 6 10 6 4"
	gc-l1 $BIG --prefetch stride --emit none --stats "$T/st.json" "$T/gs.gcs" >/dev/null
	expect_eq "$(keys "$T/st.json" misses hits)" "12 4"
}
