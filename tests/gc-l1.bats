#!/usr/bin/env bats
# gc-l1: the per-SM L1 caches.  Functional caches against hand-worked
# sequences (every write policy), the timing model against seed 000
# Tables 3, 4 and 5, the Fermi hash against seed 000 Fig. 7, one set
# against reuse distances computed here, conservation and determinism.

load helpers

L1FIX="$FIX/l1"

# mk NAME: the request stream $T/NAME.gcs from the text on stdin (format in
# tests/fixtures/l1/mkreq.awk: "K id name threads shmem regs" begins a
# kernel; "sm block warp seq op addr mask bytes [time [space [flags [pc]]]]").
mk() {
	awk -v SECTOR="${SECTOR:-32}" -f "$L1FIX/mkreq.awk" >"$T/$1.csv" &&
		gc-import -f csv "$T/$1.csv" >"$T/$1.gcs"
}

# jget JSON KEY: one value of a --stats file (arrays as kernels.0.l1_size).
jget() {
	gc-stats --merge --arrays "$1" |
		awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
			NR == 2 { if (c) print $c; else print "no key " k }'
}

# CSV_AWK: the awk function csv(LINE, F) that splits one CSV line into
# F[1..n], honouring quotes, and returns n.
CSV_AWK='
function csv(line, f,   n, i, c, q, v) {
	n = 0; v = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { v = v c; i++ }
		else if (c == "\"") q = !q
		else if (c == "," && !q) { f[++n] = v; v = "" }
		else v = v c
	}
	f[++n] = v
	return n
}'

# jall JSON: every value of a --stats file into the array J (J[hits],
# J[classes.capacity], J[kernels.0.misses]), with one gc-stats.
jall() {
	local k v
	unset J
	declare -gA J
	while IFS='	' read -r k v; do
		J[$k]=$v
	done < <(gc-stats --merge --arrays "$1" | awk "$CSV_AWK"'
		NR == 1 { n = csv($0, key) }
		NR == 2 { csv($0, val); for (i = 1; i <= n; i++) print key[i] "\t" val[i] }')
	[ "${#J[@]}" -gt 0 ] || { echo "jall: no keys in $1" >&2; return 1; }
}

# rows FILE: the data records of a stream as "op addr mask bytes time outcome".
rows() {
	gc-stats --dump "$1" | awk -F, '!/^#/ && ($8 == "load" || $8 == "store" || $8 == "atomic") {
		print $8, $10, $12, $11, $13, $14 }'
}

# outcomes FILE: the data records as "addr time outcome".
outcomes() {
	rows "$1" | awk '{ print $2, $5, $6 }'
}

# bfs_gcs: $BFSGCS, the BFS trace scheduled and coalesced, made once for
# the tests of this file that share it.
BFSGCS=$BATS_FILE_TMPDIR/bfs.gcs
bfs_gcs() {
	[ -s "$BFSGCS" ] && return 0
	gc-import "$BFS" | gc-sched 2>/dev/null | gc-coalesce >"$BFSGCS" && [ -s "$BFSGCS" ] ||
		{ rm -f "$BFSGCS"; return 1; }
}

# same_pairs WHAT A1 B1 [A2 B2 ...]: each pair of files holds the same
# bytes, all checked by one cksum; names every pair that differs.
same_pairs() {
	local what=$1 a b bad=0 i=0
	shift
	local -a sum
	mapfile -t sum < <(cksum -- "$@")
	[ "${#sum[@]}" -eq $# ] || { echo "$what: cksum read ${#sum[@]} of $# files" >&2; return 1; }
	while [ $# -gt 0 ]; do
		a=${sum[i]%% /*} b=${sum[i + 1]%% /*}
		if [ "$a" != "$b" ]; then
			echo "$what: $1 and $2 differ" >&2
			bad=1
		fi
		shift 2
		i=$((i + 2))
	done
	return $bad
}

# mix_gcs: $T/mix.gcs, a mix of loads, stores and atomics in global,
# local, shared and const space, some flagged to bypass L1, over 3 kernels
# and 3 SMs.
mix_gcs() {
	awk 'BEGIN {
		srand(5)
		split("global global global local shared const", sp, " ")
		for (k = 1; k <= 3; k++) {
			printf "K %d mix%d %d %d %d 24\n", k, k, 256 * k, 12288 * (k - 1), 16 * k
			for (s = 0; s < 12; s++)
				for (b = 0; b < 6; b++)
					for (w = 0; w < 4; w++) {
						n = 1 + int(rand() * 4); x = rand()
						op = x < 0.6 ? "load" : x < 0.95 ? "store" : "atomic"
						space = sp[1 + int(rand() * 6)]
						fl = rand() < 0.05 ? 1 : 0
						for (i = 0; i < n; i++)
							printf "%d %d %d %d %s 0x%x 0x%x %d %d %s %d 0x%x\n",
								b % 3, b, w, s, op,
								(1 + int(rand() * 40)) * 128 + 4096 * (i % 3),
								1 + int(rand() * 15), 4 * (1 + int(rand() * 32)),
								12 * (k - 1) + s, space, fl, 256 + 16 * int(rand() * 9)
					}
		}
	}' | mk mix
}

# var_pair VAR DIR STREAM OPTION...: gc-l1 OPTION... --stats s.json STREAM
# in DIR/a, and with VAR=1 in DIR/b (each in its own directory, its
# --stats named s.json in both: the provenance names it); the outputs,
# --stats and stderr go on the array pairs, for same_pairs.
var_pair() {
	local var=$1 d=$2 f=$3
	shift 3
	mkdir -p "$d/a" "$d/b"
	cd "$d/a" || return 1
	gc-l1 "$@" --stats s.json "$f" >o.gcs 2>e
	cd "$d/b" || return 1
	local -x "$var=1"
	gc-l1 "$@" --stats s.json "$f" >o.gcs 2>e
	pairs+=("$d/a/o.gcs" "$d/b/o.gcs" "$d/a/s.json" "$d/b/s.json" "$d/a/e" "$d/b/e")
}

# A 1-set, 2-way, 32-byte-sector L1 (4 sectors a line) for the policy tests.
SMALL="--sets 1 --ways 2 --index linear --sector 32"
# The seed-000 examples: whole lines, one set of 2 lines, fixed latencies.
SEED="--timing --emit all --sector 128 --sets 1 --ways 2 --index linear --sigma 0"

@test "gc-l1: help, version, unknown option, bad value; --help and the manual agree" {
	common_cli_cases gc-l1 --seed
	help_matches_man gc-l1
	sh_status 2 "gc-l1 --emit some </dev/null"
	expect_eq "$(head -1 "$T/err")" "gc-l1: --emit: 'some' is not l2, all or none"
	sh_status 2 "gc-l1 --kernel-boundary drop </dev/null"
	expect_eq "$(head -1 "$T/err")" "gc-l1: --kernel-boundary: 'drop' is not flush or keep"
	sh_status 2 "gc-l1 --window 0 </dev/null"
	expect_match "$(cat "$T/err")" "^gc-l1: --window: "
	[ ! -s "$T/out" ]
}

@test "gc-l1: a bad geometry or key is a usage error naming the option" {
	mk one <<-EOF
	K 1 k 32 0 8
	0 0 0 0 load 0x1000 0x1 4
	EOF
	sh_status 2 "gc-l1 --ways 0 '$T/one.gcs'"
	expect_match "$(cat "$T/err")" "^gc-l1: --ways: bad value '0' for key 'l1.ways'"
	sh_status 2 "gc-l1 --sets 4 --index fermi '$T/one.gcs'"
	expect_match "$(cat "$T/err")" "fermi"
	sh_status 2 "gc-l1 --write sometimes '$T/one.gcs'"
	expect_match "$(cat "$T/err")" "^gc-l1: --write: bad value 'sometimes'"
	[ ! -s "$T/out" ]
	# --timing's rule, and the test variable of its reading in rounds
	sh_status 2 "gc-l1 --timing --dispatch soon '$T/one.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-l1: --dispatch: 'soon' is not free or read"
	[ ! -s "$T/out" ]
	GC_L1_FREE_READ=abc sh_status 2 "gc-l1 --timing '$T/one.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-l1: GC_L1_FREE_READ: 'abc' is not a number"
	[ ! -s "$T/out" ]
}

@test "gc-l1: reads requests only; a broken stream is an error with nothing written" {
	gc-gen table2 >"$T/acc.gcs"
	sh_status 1 "gc-l1 '$T/acc.gcs'"
	expect_eq "$(cat "$T/err")" "gc-l1: $T/acc.gcs: gc-l1 reads requests; this stream holds accesses"
	[ ! -s "$T/out" ]
	gc-gen strided --loads 8 | gc-sched | gc-coalesce >"$T/r.gcs"
	head -c -32 "$T/r.gcs" >"$T/cut.gcs"
	for m in "" "--timing"; do
		sh_status 1 "gc-l1 $m '$T/cut.gcs' >'$T/o.gcs'"
		expect_match "$(cat "$T/err")" "^gc-l1: .*cut.gcs: .*missing end-of-stream record"
		# what was written is detectably truncated
		run_status 1 gc-stats "$T/o.gcs"
	done
}

@test "gc-l1: stdin, a file and - give the same output; gzip input too; /dev/full fails" {
	gc-gen matmul -n 32 | gc-sched | gc-coalesce >"$T/r.gcs"
	gzip -c "$T/r.gcs" >"$T/r.gcs.gz"
	for m in "" "--timing" "--emit all"; do
		(cd "$T" && gc-l1 $m r.gcs | gc-stats --dump | grep -v '^# header provenance') >"$T/a"
		(cd "$T" && gc-l1 $m <r.gcs | gc-stats --dump | grep -v '^# header provenance') >"$T/b"
		(cd "$T" && gc-l1 $m - <r.gcs | gc-stats --dump | grep -v '^# header provenance') >"$T/c"
		(cd "$T" && gc-l1 $m r.gcs.gz | gc-stats --dump | grep -v '^# header provenance') >"$T/d"
		cmp "$T/a" "$T/b"
		cmp "$T/a" "$T/c"
		cmp "$T/a" "$T/d"
	done
	sh_status 1 "gc-l1 '$T/r.gcs' >/dev/full"
	expect_match "$(cat "$T/err")" "^gc-l1: .*No space left on device"
	sh_status 1 "gc-l1 --stats /dev/full '$T/r.gcs' >/dev/null"
}

@test "gc-l1: the header carries the GPU, the model and the provenance; -o and -z" {
	mk one <<-EOF
	K 1 k 32 0 8
	0 0 0 0 load 0x1000 0x1 4
	EOF
	gc-l1 --ways 8 -o "$T/o.gcs" "$T/one.gcs"
	gc-stats --json "$T/o.gcs" >"$T/j"
	grep -q '"gpu.l1.ways": "8",' "$T/j"
	grep -q '"gpu.l1.size": "32K",' "$T/j"
	grep -q '"l1.emit": "l2",' "$T/j"
	grep -q '"l1.model": "functional",' "$T/j"
	grep -q '"sector_size": "32",' "$T/j"
	grep -q '"provenance": "gc-l1 --ways 8 -o [^ ]*o.gcs [^ ]*one.gcs"' "$T/j"
	grep -q '"optional": 1,' "$T/j"
	gc-l1 --emit all --timing -z "$T/one.gcs" >"$T/o.gz"
	gzip -t "$T/o.gz"
	gc-stats --json "$T/o.gz" | grep -q '"optional": 3,'
}

# ---- seed 000 §4.2: Tables 3 and 4 ------------------------------------------

# Table 2's kernel: 4 threads (one a warp), x[2t] then x[2t+1], 4 elements a
# line: lines 0 0 1 1, then 0 0 1 1.
table2() {
	mk t2 <<-EOF
	K 1 table2 4 0 8
	0 0 0 0 load 0x000 0x1 4 0
	0 0 1 0 load 0x000 0x1 4 1
	0 0 2 0 load 0x080 0x1 4 2
	0 0 3 0 load 0x080 0x1 4 3
	0 0 0 1 load 0x000 0x1 4 4
	0 0 1 1 load 0x000 0x1 4 5
	0 0 2 1 load 0x080 0x1 4 6
	0 0 3 1 load 0x080 0x1 4 7
	EOF
}

@test "seed 000 Table 3: fixed latency 2: m m m m h h h h, effects up to time 9" {
	table2
	gc-l1 $SEED --hit-latency 2 --miss-latency 2 --stats "$T/s.json" "$T/t2.gcs" >"$T/o.gcs"
	# time, outcome: issued at 0..7 in warp order.  The requests at 1 and
	# 3 find their line in flight: the table's "latency misses" (distance
	# infinite, not compulsory), merged with the miss before them.
	rows "$T/o.gcs" | awk '{ print $5, $6 }' >"$T/got"
	printf '%s\n' "0 miss/compulsory" "1 miss/latency" "2 miss/compulsory" "3 miss/latency" \
		"4 hit" "5 hit" "6 hit" "7 hit" >"$T/want"
	diff "$T/want" "$T/got"
	# 'effect at' 2 3 4 5 6 7 8 9: the last effect is at 9
	expect_eq "$(jget "$T/s.json" cycles)" 9
	expect_eq "$(jget "$T/s.json" classes.latency)" 2
	expect_eq "$(jget "$T/s.json" to_l2.reads)" 2
}

@test "seed 000 Table 4: hit 0, miss 2, two lines: the same hits, effects up to time 7" {
	table2
	gc-l1 $SEED --hit-latency 0 --miss-latency 2 --stats "$T/s.json" "$T/t2.gcs" >"$T/o.gcs"
	rows "$T/o.gcs" | awk '{ print $5, $6 }' >"$T/got"
	printf '%s\n' "0 miss/compulsory" "1 miss/latency" "2 miss/compulsory" "3 miss/latency" \
		"4 hit" "5 hit" "6 hit" "7 hit" >"$T/want"
	diff "$T/want" "$T/got"
	# 'effect at' 2 3 4 5 4 5 6 7: the hits take effect as they issue
	expect_eq "$(jget "$T/s.json" cycles)" 7
	expect_eq "$(jget "$T/s.json" config.size)" 256
}

@test "seed 000 §4.2 clipping: a request to a line in flight takes effect with it" {
	# Warp 0 misses on line 0 at time 0 (effect at 10); warp 1 asks for
	# line 0 at time 1.  Unclipped its effect would be 1 + 10 = 11;
	# clipped it is 10, so warp 1 issues its next load at 10, not 11.
	mk c <<-EOF
	K 1 clip 64 0 8
	0 0 0 0 load 0x000 0x1 4 0
	0 0 1 0 load 0x000 0x1 4 1
	0 0 1 1 load 0x080 0x1 4 2
	EOF
	gc-l1 $SEED --hit-latency 0 --miss-latency 10 "$T/c.gcs" >"$T/o.gcs"
	outcomes "$T/o.gcs" >"$T/got"
	printf '%s\n' "0x0 0 miss/compulsory" "0x0 1 miss/latency" "0x80 10 miss/compulsory" >"$T/want"
	diff "$T/want" "$T/got"
}

@test "seed 000 Table 5: one MSHR: a cancel, a re-issue, an MSHR-class miss" {
	# Threads 0 and 2 of Table 4 (the two the table shows), one MSHR.
	mk t5 <<-EOF
	K 1 table5 4 0 8
	0 0 0 0 load 0x000 0x1 4 0
	0 0 2 0 load 0x080 0x1 4 1
	0 0 0 1 load 0x000 0x1 4 2
	0 0 2 1 load 0x080 0x1 4 3
	EOF
	gc-l1 $SEED --hit-latency 0 --miss-latency 2 --mshr 1 --mshr-per-warp 1 \
		--stats "$T/s.json" "$T/t5.gcs" >"$T/o.gcs"
	outcomes "$T/o.gcs" >"$T/got"
	# time 0: thread 0 misses on line 0 (the MSHR taken, effect at 2);
	# time 1: thread 2 needs a second MSHR: cancelled, to the back;
	# time 2: line 0 arrives, its MSHR is free; thread 0 (ready at 2 and
	#   ahead of the cancelled thread 2) hits line 0, as in the table;
	# time 3: thread 2 re-issues: a miss, effect at 5, as in the table.
	# The table then has thread 2 issue instruction 1 at time 4, merged
	# into its own in-flight line 1 (effect 6).  That cannot follow from
	# this model: a warp waits for its slowest request (§4.5) before it
	# issues again, and the two threads the table leaves out would have
	# taken times 1 and 3 (with all four threads there is no cancel at
	# all: thread 1 merges into line 0, the MSHR is free again at 2).
	# Here thread 2 issues at 5, when line 1 has arrived: a hit.
	printf '%s\n' "0x0 0 miss/compulsory" "0x0 2 hit" "0x80 3 miss/mshr" "0x80 5 hit" >"$T/want"
	diff "$T/want" "$T/got"
	expect_eq "$(jget "$T/s.json" mshr_stalls)" 1
	expect_eq "$(jget "$T/s.json" classes.mshr)" 1
	# all four threads: no stall
	table2
	gc-l1 $SEED --hit-latency 0 --miss-latency 2 --mshr 1 --mshr-per-warp 1 \
		--stats "$T/s4.json" "$T/t2.gcs" >/dev/null
	expect_eq "$(jget "$T/s4.json" mshr_stalls)" 0
	expect_eq "$(jget "$T/s4.json" classes.latency)" 2
}

@test "timing: an instruction wider than the per-warp MSHR limit issues in parts" {
	# one load instruction touching 8 lines; 6 MSHRs a warp
	{
		echo "K 1 wide 32 0 8"
		for i in 0 1 2 3 4 5 6 7; do echo "0 0 0 0 load $((i * 128)) 0x1 4 0"; done
	} | mk w
	gc-l1 --timing --emit all --sigma 0 --miss-latency 100 --mshr-per-warp 6 \
		--stats "$T/s.json" "$T/w.gcs" >"$T/o.gcs"
	rows "$T/o.gcs" | awk '{ print $5, $6 }' | uniq -c | awk '{ print $1, $2, $3 }' >"$T/got"
	printf '%s\n' "6 0 miss/compulsory" "2 100 miss/mshr" >"$T/want"
	diff "$T/want" "$T/got"
	expect_eq "$(jget "$T/s.json" cycles)" 200
	# merges per entry: 3 warps on one line.  With --mshr-merge 1 the
	# others wait for the fill (and issue a step apart); with 2 the second
	# merges, which fills the entry, so the third, new and with MSHRs to
	# spare, still waits
	mk m <<-EOF
	K 1 merge 96 0 8
	0 0 0 0 load 0x000 0x1 4 0
	0 0 1 0 load 0x000 0x1 4 1
	0 0 2 0 load 0x000 0x1 4 2
	EOF
	for mw in "1|0 miss/compulsory|50 hit|51 hit" "2|0 miss/compulsory|1 miss/latency|50 hit"; do
		gc-l1 --timing --emit all --sigma 0 --miss-latency 50 --mshr-merge "${mw%%|*}" "$T/m.gcs" >"$T/o.gcs"
		rows "$T/o.gcs" | awk '{ print $5, $6 }' >"$T/got"
		echo "${mw#*|}" | tr '|' '\n' >"$T/want"
		diff "$T/want" "$T/got"
	done
}

@test "timing: miss latencies are seeded: same seed same output, another seed differs" {
	gc-gen rowcopy -n 64 | gc-sched | gc-coalesce >"$T/r.gcs"
	gc-l1 --timing --emit all --seed 7 "$T/r.gcs" >"$T/a.gcs"
	gc-l1 --timing --emit all --seed 7 "$T/r.gcs" >"$T/b.gcs"
	cmp "$T/a.gcs" "$T/b.gcs"
	gc-l1 --timing --emit all --seed 8 "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/c"
	gc-stats --dump "$T/a.gcs" | grep -v '^#' >"$T/a"
	expect_differ "$T/a" "$T/c" "seed 7 and seed 8"
	# sigma 0: every miss costs lambda_min exactly, whatever the seed
	gc-l1 --timing --sigma 0 --seed 1 --stats "$T/s1.json" "$T/r.gcs" >"$T/d.gcs"
	gc-l1 --timing --sigma 0 --seed 2 --stats "$T/s2.json" "$T/r.gcs" >"$T/e.gcs"
	gc-stats --dump "$T/d.gcs" | grep -v '^#' >"$T/d"
	gc-stats --dump "$T/e.gcs" | grep -v '^#' >"$T/e"
	expect_same "$T/d" "$T/e" "sigma 0, seeds 1 and 2"
}

# late WINDOW FILE RECORD BLOCK WARP: gc-l1 --timing --window WINDOW
# refuses FILE under both --dispatch rules, naming the record, its block
# and warp, in each rule's words (the outputs in $T/part-read.gcs and
# $T/part.gcs).
late() {
	sh_status 1 "gc-l1 --timing --dispatch read --window $1 '$2' >'$T/part-read.gcs'"
	expect_eq "$(cat "$T/err")" "gc-l1: $2: record $3: block $4 warp $5 has a request after the timing model ended it (no request of it in $1 records); raise --window"
	sh_status 1 "gc-l1 --timing --window $1 '$2' >'$T/part.gcs'"
	expect_eq "$(cat "$T/err")" "gc-l1: $2: record $3: block $4 warp $5 has a request after the timing model ended the warp or started its block (no request of the warp, or no new warp of the block, in $1 records, or the block had its warps); raise --window"
}

@test "timing: a warp whose requests come after --window records is an error" {
	{
		echo "K 1 gap 64 0 8"
		echo "0 0 0 0 load 0x000 0x1 4 0"
		for i in $(seq 1 20); do echo "0 0 1 $i load $((i * 128)) 0x1 4 $i"; done
		echo "0 0 0 1 load 0x000 0x1 4 30"
	} | mk gap
	# --dispatch free (the default) decides it from the records alone
	# (21 records after the warp's last): the same record
	late 5 "$T/gap.gcs" 24 0 0
	gc-l1 --timing --window 64 "$T/gap.gcs" >/dev/null
	gc-l1 --timing --dispatch read --window 64 "$T/gap.gcs" >/dev/null
	# the late record in the second batch of 64 records read at once, not
	# its last; what was written before the error is no complete stream
	{
		echo "K 1 gap 64 0 8"
		echo "0 0 0 0 load 0x000 0x1 4 0"
		for i in $(seq 1 100); do echo "0 0 1 $i load $((i * 128)) 0x1 4 $i"; done
		echo "0 0 0 1 load 0x000 0x1 4 200"
		for i in $(seq 101 110); do echo "0 0 1 $i load $((i * 128)) 0x1 4 $((i + 100))"; done
	} | mk gap2
	late 70 "$T/gap2.gcs" 104 0 0
	run_status 1 gc-stats "$T/part-read.gcs"
	run_status 1 gc-stats "$T/part.gcs"
	# a new warp of a block more than --window records after its last
	# new warp: the block has started without it (record 25: 22 records
	# after warp 0's first; 4096 threads: no count to reach)
	{
		echo "K 1 gap 4096 0 8"
		echo "0 0 0 0 load 0x000 0x1 4 0"
		for i in $(seq 1 21); do echo "0 1 1 $i load $((i * 128)) 0x1 4 $i"; done
		echo "0 0 1 1 load 0x000 0x1 4 30"
	} | mk gap3
	# (the old rule ends the block first: the same record)
	late 20 "$T/gap3.gcs" 25 0 1
	gc-l1 --timing --window 22 "$T/gap3.gcs" >/dev/null
	gc-l1 --timing --dispatch read --window 22 "$T/gap3.gcs" >/dev/null
}

# ---- seed 000 §5.1, Fig. 7: the Fermi hash ------------------------------------

@test "seed 000 Fig. 7: strided loops miss 50% or 100% as the hashed set bits predict" {
	# The prediction, worked apart from gc-l1: set bit j of the Fermi hash
	# is address bit 7+j XOR one of bits 13, 14, 15, 17, 19 (16 KB, 32
	# sets).  N = 2^n loads at stride 2^s vary address bits s..s+n-1; a
	# set bit varies when either of its two address bits does.  With k
	# varied set bits each set gets N / 2^k lines: 4 ways hold them when
	# that is at most 4, and the second loop hits (50%), else every load
	# misses (100%).
	#
	# One kernel per (s, n), each the requests `gc-gen strided --loads N
	# --stride 2^s | gc-sched | gc-coalesce` makes (one warp loads the N
	# lines twice), in one stream: gc-l1 flushes at each kernel, so each
	# kernel's misses are its own run's.  $T/want: "kernel s n misses".
	awk -v want="$T/want" 'BEGIN {
		split("13 14 15 17 19", hi, " ")
		for (s = 7; s <= 20; s++)
			for (n = 2; n <= 8; n++) {
				k = 0
				for (j = 0; j < 5; j++) {
					lo = 7 + j; h = hi[j + 1]
					if ((lo >= s && lo < s + n) || (h >= s && h < s + n)) k++
				}
				id++
				print id, s, n, (2 ^ n / 2 ^ k <= 4) ? 2 ^ n : 2 ^ (n + 1) >want
				print "K", id, "strided", 32, 0, 32
				seq = 0
				for (r = 0; r < 2; r++)
					for (i = 0; i < 2 ^ n; i++) {
						printf "0 0 0 %d load 0x%x 0x1 128 %d\n", seq, 268435456 + i * 2 ^ s, t
						seq++; t++
					}
			}
	}' | mk fig7
	expect_eq "$(wc -l <"$T/want")" 98 "kernels"
	gc-l1 --gpu fermi-gtx470-16k --stats "$T/s.json" <"$T/fig7.gcs" >/dev/null
	gc-stats --merge --long "$T/s.json" |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ print $c["kernel"], $c["misses"] }' >"$T/got"
	expect_eq "$(wc -l <"$T/got")" 98 "kernels in gc-l1's --stats"
	awk 'NR == FNR { got[$1] = $2; next }
		got[$1] != $4 { printf "stride 2^%d, %d loads: %s misses, predicted %d\n", $2, 2 ^ $3, got[$1], $4; bad++ }
		END { exit bad > 0 }' "$T/got" "$T/want"
	# the kernels are gc-gen's: stride 2^12, 128 loads (kernel (12 - 7) *
	# 7 + 7 - 1 = 41) has the pipeline's requests, field for field
	gc-gen strided --loads 128 --stride 4096 | gc-sched | gc-coalesce >"$T/g.gcs"
	gc-stats --dump "$T/g.gcs" | awk -F, '$8 == "load" { print $8, $10, $11, $12 }' >"$T/g.rows"
	gc-stats --dump "$T/fig7.gcs" | awk -F, '$1 == 41 && $8 == "load" { print $8, $10, $11, $12 }' >"$T/f.rows"
	expect_eq "$(wc -l <"$T/g.rows")" 256 "gc-gen's requests"
	diff "$T/g.rows" "$T/f.rows"
	# the figure's example: stride 2^12, 128 loads: 4 set bits vary, 100%
	gc-gen strided --loads 128 --stride 4096 | gc-sched | gc-coalesce | gc-l1 --stats "$T/s.json" >/dev/null
	expect_eq "$(jget "$T/s.json" hit_rate)" 0
	# a linear index would fit them: 128 lines over 1 set bit (bit 12 is
	# not used with 32 sets) -- no, bits 12-18 give linear set bits 5-11:
	# none, so one set holds all 128 lines and everything misses too;
	# with stride 2^7 the linear index spreads 32 loads over 32 sets.
	gc-gen strided --loads 32 --stride 128 | gc-sched | gc-coalesce |
		gc-l1 --index linear --stats "$T/s.json" >/dev/null
	expect_eq "$(jget "$T/s.json" misses)" 32
}

# ---- one set: misses are the reuse distances >= lines --------------------------

@test "one set of L ways: misses = requests with reuse distance >= L (and gc-rd agrees)" {
	gc-gen gather -n 2048 | gc-sched | gc-coalesce >"$T/g.gcs"
	gc-stats --dump "$T/g.gcs" >"$T/g.csv"
	for L in 1 4 8 32 100; do
		# naive LRU stack per SM, on line addresses
		want=$(awk -F, -v L=$L '/^#/ || ($8 != "load" && $8 != "store") { next }
			{ sm = $2; a = $10; n = cnt[sm]; d = -1
			  for (i = n; i >= 1; i--) if (st[sm, i] == a) { d = n - i; break }
			  if (d < 0) { n++; cnt[sm] = n; i = n }
			  else for (j = i; j < n; j++) st[sm, j] = st[sm, j + 1]
			  st[sm, n] = a
			  if (d < 0 || d >= L) m++ }
			END { print m + 0 }' "$T/g.csv")
		gc-l1 --sector 128 --sets 1 --ways $L --index linear --stats "$T/s.json" "$T/g.gcs" >/dev/null
		expect_eq "$(jget "$T/s.json" misses)" "$want" "misses with $L ways"
		# fully associative: no conflict misses; the rest are capacity
		expect_eq "$(jget "$T/s.json" classes.conflict)" 0
		expect_eq $(($(jget "$T/s.json" classes.compulsory) + $(jget "$T/s.json" classes.capacity))) "$want"
		if command -v gc-rd >/dev/null && [ $L -le 32 ]; then
			rd=$(gc-rd --by sm --mrc "$T/g.gcs" | awk -F, -v L=$L '$1 == L { print $2 }')
			expect_eq "$rd" "$want" "gc-rd misses with $L lines"
		fi
	done
}

@test "classification: conflict misses are hits of the fully associative shadow" {
	# 2 sets x 1 way: lines 0 and 2 share set 0; line 1 is alone in set 1.
	# 0 2 0 2: compulsory, compulsory, conflict, conflict (2 lines fit).
	# then 0 1 3 5 0: 1, 3, 5 compulsory; 0 is at distance 3 >= 2: capacity.
	mk c <<-EOF
	K 1 k 32 0 8
	0 0 0 0 load 0x000 0x1 4
	0 0 0 1 load 0x100 0x1 4
	0 0 0 2 load 0x000 0x1 4
	0 0 0 3 load 0x100 0x1 4
	0 0 0 4 load 0x080 0x1 4
	0 0 0 5 load 0x180 0x1 4
	0 0 0 6 load 0x280 0x1 4
	0 0 0 7 load 0x000 0x1 4
	EOF
	gc-l1 --emit all --sector 128 --sets 2 --ways 1 --index linear "$T/c.gcs" >"$T/o.gcs"
	rows "$T/o.gcs" | awk '{ print $6 }' | tr '\n' ' ' >"$T/got"
	expect_eq "$(cat "$T/got")" "miss/compulsory miss/compulsory miss/conflict miss/conflict miss/compulsory miss/compulsory miss/compulsory miss/capacity "
}

@test "sectors: a sector miss fetches only the missing sectors; masks in L1 sectors" {
	mk s <<-EOF
	K 1 k 32 0 8
	0 0 0 0 load 0x1000 0x1 32
	0 0 0 1 load 0x1000 0x3 64
	0 0 0 2 load 0x1000 0x3 64
	0 0 0 3 load 0x1000 0xf 128
	EOF
	gc-l1 $SMALL --stats "$T/s.json" "$T/s.gcs" >"$T/o.gcs"
	rows "$T/o.gcs" | awk '{ print $1, $2, $3, $4 }' >"$T/got"
	printf '%s\n' "load 0x1000 0x1 32" "load 0x1000 0x2 32" "load 0x1000 0xc 64" >"$T/want"
	diff "$T/want" "$T/got"
	expect_eq "$(jget "$T/s.json" sector_misses)" 2
	expect_eq "$(jget "$T/s.json" hits)" 1
	# an unsectored L1 (Fermi: one 128-byte sector) fetches whole lines;
	# the masks still count the stream's 32-byte sectors
	gc-l1 "$T/s.gcs" >"$T/f.gcs"
	rows "$T/f.gcs" | awk '{ print $1, $2, $3, $4 }' >"$T/got"
	expect_eq "$(cat "$T/got")" "load 0x1000 0xf 128"
	gc-stats --json "$T/f.gcs" | grep -q '"sector_size": "32",'
}

# ---- write policies, hand-worked ------------------------------------------------

# The sequence of every policy test: lines A=0x1000, B=0x2000, C=0x3000 in
# one set of 2 ways, 4 sectors of 32 bytes.
#   1 store A s0 32 B   2 load A s0   3 store A s0 32 B   4 store A s1 4 B
#   (partial)   5 load A s0-1   6 load B   7 load C (evicts A)   8 load A s0
policy_seq() {
	mk p <<-EOF
	K 1 k 32 0 8
	0 0 0 0 store 0x1000 0x1 32
	0 0 0 1 load  0x1000 0x1 32
	0 0 0 2 store 0x1000 0x1 32
	0 0 0 3 store 0x1000 0x2 4
	0 0 0 4 load  0x1000 0x3 64
	0 0 0 5 load  0x2000 0xf 128
	0 0 0 6 load  0x3000 0xf 128
	0 0 0 7 load  0x1000 0x1 32
	EOF
}

# policy WRITE WALLOC "L2 requests" hits misses sector_misses writebacks
policy() {
	gc-l1 $SMALL --write "$1" --write-alloc "$2" --stats "$T/s.json" "$T/p.gcs" >"$T/o.gcs"
	rows "$T/o.gcs" | awk '{ printf "%s%s %s %s %s", (NR > 1 ? ", " : ""), $1, $2, $3, $4 }' >"$T/got"
	expect_eq "$(cat "$T/got")" "$3" "L2 requests of $1 $2"
	expect_eq "$(jget "$T/s.json" hits) $(jget "$T/s.json" misses) $(jget "$T/s.json" sector_misses) $(jget "$T/s.json" to_l2.writebacks)" "$4" "hits misses sector-misses write-backs of $1 $2"
	reads=$(rows "$T/o.gcs" | awk '$1 == "load" { n++; b += $4 } END { print n + 0, b + 0 }')
	writes=$(rows "$T/o.gcs" | awk '$1 == "store" { n++; b += $4 } END { print n + 0, b + 0 }')
	expect_eq "$reads" "$(jget "$T/s.json" to_l2.reads) $(jget "$T/s.json" to_l2.read_bytes)"
	expect_eq "$writes" "$(jget "$T/s.json" to_l2.writes) $(jget "$T/s.json" to_l2.write_bytes)"
}

@test "write-through, no write-allocate: every store goes on; write misses allocate nothing" {
	policy_seq
	# 1 miss: write; 2 miss: read s0; 3 hit: write; 4 sector miss: write
	# (s1 stays invalid); 5 sector miss: read s1; 6, 7 (A out, clean), 8
	# (B out): reads
	policy write-through no-write-allocate \
		"store 0x1000 0x1 32, load 0x1000 0x1 32, store 0x1000 0x1 32, store 0x1000 0x2 4, load 0x1000 0x2 32, load 0x2000 0xf 128, load 0x3000 0xf 128, load 0x1000 0x1 32" \
		"1 7 2 0"
}

@test "write-through, write-allocate: a full-sector write miss allocates; a partial one does not fill" {
	policy_seq
	# 1 allocates A with s0 valid (whole sector written); 2 hits; 3 hits;
	# 4 writes 4 of s1's 32 bytes: not fetched, s1 stays invalid; 5 reads s1
	policy write-through write-allocate \
		"store 0x1000 0x1 32, store 0x1000 0x1 32, store 0x1000 0x2 4, load 0x1000 0x2 32, load 0x2000 0xf 128, load 0x3000 0xf 128, load 0x1000 0x1 32" \
		"2 6 2 0"
}

@test "write-through, fetch-on-write: a partial write miss fetches its sector first" {
	policy_seq
	# 4 fetches s1 (read), then writes through; 5 hits
	policy write-through fetch-on-write \
		"store 0x1000 0x1 32, store 0x1000 0x1 32, load 0x1000 0x2 32, store 0x1000 0x2 4, load 0x2000 0xf 128, load 0x3000 0xf 128, load 0x1000 0x1 32" \
		"3 5 1 0"
}

@test "write-back, no write-allocate: hits turn dirty; misses go on; eviction writes back" {
	policy_seq
	# 1 miss: written on; 2 miss: read; 3 hit: s0 dirty, nothing to L2;
	# 4 sector miss: written on; 5 read s1; 7 evicts A: s0 written back
	policy write-back no-write-allocate \
		"store 0x1000 0x1 32, load 0x1000 0x1 32, store 0x1000 0x2 4, load 0x1000 0x2 32, load 0x2000 0xf 128, store 0x1000 0x1 32, load 0x3000 0xf 128, load 0x1000 0x1 32" \
		"1 7 2 1"
	# the write-back is flagged in the annotated stream (on load C)
	gc-l1 $SMALL --write write-back --emit all "$T/p.gcs" >"$T/a.gcs"
	expect_eq "$(rows "$T/a.gcs" | awk 'NR == 7 { print $6 }')" "miss/compulsory+wb"
}

@test "write-back, write-allocate: the partial write goes on, the full one stays dirty" {
	policy_seq
	policy write-back write-allocate \
		"store 0x1000 0x2 4, load 0x1000 0x2 32, load 0x2000 0xf 128, store 0x1000 0x1 32, load 0x3000 0xf 128, load 0x1000 0x1 32" \
		"2 6 2 1"
}

@test "write-back, fetch-on-write: nothing written until the eviction writes both sectors" {
	policy_seq
	policy write-back fetch-on-write \
		"load 0x1000 0x2 32, load 0x2000 0xf 128, store 0x1000 0x3 64, load 0x3000 0xf 128, load 0x1000 0x1 32" \
		"3 5 1 1"
}

@test "write-evict: a write hit invalidates the line; stores always go on" {
	policy_seq
	# 3 hits and evicts A; 4 misses (no line); 5 misses and reads s0-1
	policy write-evict no-write-allocate \
		"store 0x1000 0x1 32, load 0x1000 0x1 32, store 0x1000 0x1 32, store 0x1000 0x2 4, load 0x1000 0x3 64, load 0x2000 0xf 128, load 0x3000 0xf 128, load 0x1000 0x1 32" \
		"1 7 0 0"
}

@test "local-write-back: local stores are written back, global ones written through" {
	mk lw <<-EOF
	K 1 k 32 0 8
	0 0 0 0 load 0x1000 0x1 32 0 local
	0 0 0 1 store 0x1000 0x1 32 0 local
	0 0 0 2 load 0x2000 0x1 32 0 global
	0 0 0 3 store 0x2000 0x1 32 0 global
	EOF
	gc-l1 $SMALL --write local-write-back --kernel-boundary keep "$T/lw.gcs" >"$T/o.gcs"
	rows "$T/o.gcs" | awk '{ printf "%s %s %s;", $1, $2, $3 }' >"$T/got"
	expect_eq "$(cat "$T/got")" "load 0x1000 0x1;load 0x2000 0x1;store 0x2000 0x1;"
	# flushed at the kernel's end: the dirty local sector is written back
	gc-l1 $SMALL --write local-write-back --stats "$T/s.json" "$T/lw.gcs" >"$T/o.gcs"
	rows "$T/o.gcs" | awk '{ printf "%s %s %s;", $1, $2, $3 }' >"$T/got"
	expect_eq "$(cat "$T/got")" "load 0x1000 0x1;load 0x2000 0x1;store 0x2000 0x1;store 0x1000 0x1;"
	expect_eq "$(jget "$T/s.json" to_l2.writebacks)" 1
}

@test "bypass: atomics, cache-global loads, --skip-global, constant go on; shared stays" {
	mk b <<-EOF
	K 1 k 32 0 8
	0 0 0 0 atomic 0x1000 0x1 4
	0 0 0 1 load 0x2000 0x1 4 0 global 1
	0 0 0 2 load 0x2000 0x1 4 0 global 1
	0 0 0 3 load 0x3000 0x1 4 0 shared
	0 0 0 4 load 0x4000 0x1 4 0 const
	0 0 0 5 load 0x5000 0x1 4 0 global
	0 0 0 6 load 0x5000 0x1 4 0 global
	EOF
	gc-l1 $SMALL --stats "$T/s.json" "$T/b.gcs" >"$T/o.gcs"
	rows "$T/o.gcs" | awk '{ printf "%s %s;", $1, $2 }' >"$T/got"
	expect_eq "$(cat "$T/got")" "atomic 0x1000;load 0x2000;load 0x2000;load 0x4000;load 0x5000;"
	expect_eq "$(jget "$T/s.json" bypasses) $(jget "$T/s.json" shared) $(jget "$T/s.json" hits) $(jget "$T/s.json" misses)" "4 1 1 1"
	expect_eq "$(jget "$T/s.json" to_l2.atomics)" 1
	gc-l1 $SMALL --emit all "$T/b.gcs" >"$T/a.gcs"
	rows "$T/a.gcs" | awk '{ printf "%s;", $6 }' >"$T/got"
	expect_eq "$(cat "$T/got")" "+bypass;+bypass;+bypass;;+bypass;miss/compulsory;hit;"
	gc-l1 $SMALL --skip-global yes --stats "$T/s.json" "$T/b.gcs" >/dev/null
	expect_eq "$(jget "$T/s.json" bypasses) $(jget "$T/s.json" misses)" "6 0"
}

# ---- kernels: carve-out and boundaries ---------------------------------------------

@test "adaptive L1: each kernel's carve-out sets its L1 size (seed 003 formula 7)" {
	# volta-v100: 128 KB unified, shared options 0 8 16 32 64 96 KB, 4 sets
	# of 128-byte lines, ways scale.  256 threads, 32 registers:
	#   no shared memory: 0 KB shared, L1 128 KB (256 ways);
	#   20 KB a block: 4 blocks at 96 KB need 80 KB -> 96 KB, L1 32 KB;
	#   4 KB a block: 8 blocks (the thread limit) need 32 KB -> L1 96 KB.
	mk v <<-EOF
	K 1 none 256 0 32
	0 0 0 0 load 0x1000 0x1 4
	K 2 big 256 20480 32
	0 0 0 0 load 0x1000 0x1 4
	K 3 small 256 4096 32
	0 0 0 0 load 0x1000 0x1 4
	EOF
	gc-l1 --gpu volta-v100 --stats "$T/s.json" "$T/v.gcs" >/dev/null
	for k in 0 1 2; do
		echo "$(jget "$T/s.json" kernels.$k.l1_size) $(jget "$T/s.json" kernels.$k.l1_ways) $(jget "$T/s.json" kernels.$k.shmem_per_sm) $(jget "$T/s.json" kernels.$k.active_blocks)"
	done >"$T/got"
	printf '%s\n' "131072 256 0 8" "32768 64 98304 4" "98304 192 32768 8" >"$T/want"
	diff "$T/want" "$T/got"
	# a fixed carve-out keeps the preset's L1
	gc-l1 --gpu volta-v100 --carveout fixed --stats "$T/s.json" "$T/v.gcs" >/dev/null 2>&1 ||
		gc-l1 --gpu fermi-gtx470-48k --stats "$T/s.json" "$T/v.gcs" >/dev/null
	expect_eq "$(jget "$T/s.json" kernels.1.l1_size)" "$(jget "$T/s.json" kernels.0.l1_size)"
}

@test "kernel boundaries: flush (the default) empties the L1s, keep keeps them" {
	mk k2 <<-EOF
	K 1 a 32 0 8
	0 0 0 0 load 0x1000 0xf 128
	K 2 b 32 0 8
	0 0 0 0 load 0x1000 0xf 128
	EOF
	gc-l1 --stats "$T/s.json" "$T/k2.gcs" >/dev/null
	expect_eq "$(jget "$T/s.json" hits) $(jget "$T/s.json" classes.compulsory)" "0 2"
	gc-l1 --kernel-boundary keep --stats "$T/s.json" "$T/k2.gcs" >/dev/null
	expect_eq "$(jget "$T/s.json" hits) $(jget "$T/s.json" kernels.1.hits)" "1 1"
	gc-l1 --timing --kernel-boundary keep --stats "$T/s.json" "$T/k2.gcs" >/dev/null
	expect_eq "$(jget "$T/s.json" hits)" 1
}

# ---- conservation, order, determinism, end to end ------------------------------------

@test "conservation: requests = hits + misses + bypassed + shared; classes sum to misses; L2 stream = counts" {
	gc-gen matmul -n 48 | gc-sched | gc-coalesce >"$T/m.gcs"
	gc-gen stencil2d -n 64 | gc-sched --gpu volta-v100 | gc-coalesce >"$T/v.gcs"
	# each run's --stats, its L2 stream and its annotated stream dumped
	# (the dump reads every record: timestamps never decrease, the reader
	# checks it), then one awk checks every case, naming the one that fails
	i=0
	for f in m v; do
		for m in "" "--timing" "--write write-back --write-alloc fetch-on-write" \
			"--timing --mshr 8 --mshr-per-warp 2"; do
			i=$((i + 1))
			gc-l1 $m --stats "$T/s$i.json" "$T/$f.gcs" >"$T/o.gcs"
			gc-l1 $m --emit all "$T/$f.gcs" >"$T/a.gcs"
			gc-stats --dump "$T/o.gcs" >"$T/o$i.csv"
			gc-stats --dump "$T/a.gcs" >"$T/a$i.csv"
			case[$i]="$f $m"
		done
	done
	gc-stats --json "$T/m.gcs" "$T/v.gcs" >"$T/in.json"
	gc-stats --merge --arrays "$T"/s[1-8].json >"$T/s.csv"
	# without --timing the L1 is functional: the timing model with one
	# warp, zero latencies and plenty of MSHRs gives the same outcomes
	gc-gen strided --loads 200 --stride 384 | gc-sched | gc-coalesce >"$T/s.gcs"
	gc-l1 --emit all "$T/s.gcs" | gc-stats --dump >"$T/f.csv"
	gc-l1 --emit all --timing --hit-latency 0 --miss-latency 0 --sigma 0 "$T/s.gcs" |
		gc-stats --dump >"$T/t.csv"
	args=("$T/in.json" "$T/s.csv")
	for i in 1 2 3 4 5 6 7 8; do
		args+=("$T/o$i.csv" "$T/a$i.csv")
	done
	run awk -v cases="$(printf '%s\n' "${case[@]}")" "$CSV_AWK"'
		function bad(i, what, got, want) {
			printf "%s: %s: got %s, expected %s\n", name[i], what, got, want; fails++
		}
		BEGIN { split(cases, name, "\n"); FS = "," }
		FILENAME ~ /in\.json$/ { if ($0 ~ /"input":/) inp++
			if ($0 ~ /"records":/ && !(inp in recs)) { r = $0; gsub(/[^0-9]/, "", r); recs[inp] = r }
			next }
		FILENAME ~ /s\.csv$/ { if (FNR == 1) { n = csv($0, key); next }
			csv($0, val); for (k = 1; k <= n; k++) S[FNR - 1, key[k]] = val[k]; next }
		FILENAME ~ /\/o[1-8]\.csv$/ { i = substr(FILENAME, length(FILENAME) - 4, 1)
			if (!/^#/ && $8 == "load") r2[i]++; if (!/^#/ && $8 == "store") w2[i]++; seen[i]++; next }
		FILENAME ~ /\/a[1-8]\.csv$/ { i = substr(FILENAME, length(FILENAME) - 4, 1)
			if (!/^#/ && ($8 == "load" || $8 == "store" || $8 == "atomic")) {
				ar[i]++; if ($14 ~ /^hit/) ah[i]++; if ($14 ~ /miss/) am[i]++ }
			next }
		END {
			for (i = 1; i <= 8; i++) {
				req = S[i, "requests"]
				if (req !~ /^[0-9]+$/) bad(i, "requests", req, "a number")
				if (req != recs[i <= 4 ? 1 : 2]) bad(i, "requests against the input records", req, recs[i <= 4 ? 1 : 2])
				sum = S[i, "hits"] + S[i, "misses"] + S[i, "bypasses"] + S[i, "shared"]
				if (req != sum) bad(i, "hits + misses + bypasses + shared", sum, req)
				cls = 0
				split("compulsory capacity conflict latency mshr partial_write", c, " ")
				for (k = 1; k <= 6; k++) {
					v = S[i, "classes." c[k]]
					if (v !~ /^[0-9]+$/) bad(i, "classes." c[k], "\"" v "\"", "a number")
					cls += v
				}
				if (cls != S[i, "misses"]) bad(i, "classes", cls, S[i, "misses"])
				if (!seen[i]) bad(i, "the L2 stream dump", "nothing", "a dump")
				if ((r2[i] + 0) " " (w2[i] + 0) != S[i, "to_l2.reads"] " " S[i, "to_l2.writes"])
					bad(i, "L2 stream reads, writes", (r2[i] + 0) " " (w2[i] + 0), S[i, "to_l2.reads"] " " S[i, "to_l2.writes"])
				if (ar[i] + 0 != req) bad(i, "annotated records", ar[i] + 0, req)
				if ((ah[i] + 0) " " (am[i] + 0) != S[i, "hits"] " " S[i, "misses"])
					bad(i, "annotated hits, misses", (ah[i] + 0) " " (am[i] + 0), S[i, "hits"] " " S[i, "misses"])
			}
			exit fails > 0
		}' "${args[@]}"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	expect_same <(awk -F, '!/^#/ { print $10, $14 }' "$T/f.csv") <(awk -F, '!/^#/ { print $10, $14 }' "$T/t.csv") \
		"functional and timing outcomes"
}

@test "end to end: gc-gen | gc-sched | gc-coalesce | gc-l1 | gc-l2 runs, deterministic" {
	gc-gen rowcopy -n 128 | gc-sched | gc-coalesce >"$T/r.gcs"
	mkdir "$T/1" "$T/2"
	(cd "$T/1" && gc-l1 --timing --stats s.json ../r.gcs >a.gcs)
	(cd "$T/2" && gc-l1 --timing --stats s.json ../r.gcs >a.gcs)
	cmp "$T/1/a.gcs" "$T/2/a.gcs"
	cmp "$T/1/s.json" "$T/2/s.json"
	cp "$T/1/s.json" "$T/s1.json"
	cp "$T/1/a.gcs" "$T/a.gcs"
	[ "$(jget "$T/s1.json" cycles)" -gt 0 ]
	if command -v gc-l2 >/dev/null; then
		gc-l2 "$T/a.gcs" >/dev/null
	fi
	# -v prints the same counts readably
	gc-l1 -v "$T/r.gcs" 2>"$T/err" >/dev/null
	gc-l1 --stats "$T/s.json" "$T/r.gcs" >/dev/null
	expect_match "$(sed -n 2p "$T/err")" "^gc-l1: requests $(jget "$T/s.json" requests): hits $(jget "$T/s.json" hits), misses $(jget "$T/s.json" misses) "
	grep -q "^gc-l1: per PC, by misses: [0-9]* of [0-9]* (kernel, PC) rows, $(jget "$T/s.json" misses) misses in all$" "$T/err"
	grep -q "^gc-l1: *0x[0-9a-f]* *- " "$T/err"
}

@test "functional: requests taken as they lie and written as patched copies equal the decoded path (GC_L1_DECODE)" {
	# the mix (mix_gcs); BFS; the outputs, --stats, -v and --emit all of
	# both paths; the outputs of both with nothing reported
	mix_gcs
	bfs_gcs
	# (one cksum compares every pair at the end)
	pairs=() i=0
	while read -r f m; do
		i=$((i + 1))
		p=$T/$f.gcs
		[ "$f" != bfs ] || p=$BFSGCS
		var_pair GC_L1_DECODE "$T/$i" "$p" $m
	done <<-EOF
		mix --gpu volta-v100 --size 4K --ways 4 --write write-back -v
		mix --gpu volta-v100 --size 2K --ways 2 --write write-back --write-alloc fetch-on-write --emit all
		mix --gpu fermi-gtx470-48k --write write-evict --kernel-boundary keep
		bfs --size 8K --ways 4 --sector 32 --write local-write-back --emit all -v
		bfs --size 8K --ways 4 --sector 32 --write write-back --prefetch stride --prefetch-degree 4 -v
		mix --gpu volta-v100 --size 2K --ways 2 --write write-back --prefetch mta --emit all
	EOF
	# and with nothing reported: the raw path's instances for 4 LRU ways
	# over linear sets (l1.c, l1_fast, and l1_fast_pf with a prefetcher:
	# BFS's loads train it), every write policy
	for pf in "--prefetch stride --prefetch-degree 4" "--prefetch mta --prefetch-distance 2"; do
		i=$((i + 1))
		mkdir "$T/a$i" "$T/b$i"
		gc-l1 --size 8K --ways 4 --sector 32 --write write-back $pf "$BFSGCS" >"$T/a$i/o.gcs"
		GC_L1_DECODE=1 gc-l1 --size 8K --ways 4 --sector 32 --write write-back $pf "$BFSGCS" \
			>"$T/b$i/o.gcs"
		pairs+=("$T/a$i/o.gcs" "$T/b$i/o.gcs")
	done
	for w in "write-back --write-alloc fetch-on-write" "write-back --write-alloc write-allocate" \
		"write-through --write-alloc no-write-allocate" "write-evict" "local-write-back"; do
		i=$((i + 1))
		mkdir "$T/a$i" "$T/b$i"
		gc-l1 --gpu volta-v100 --size 4K --ways 4 --write $w "$T/mix.gcs" >"$T/a$i/o.gcs"
		GC_L1_DECODE=1 gc-l1 --gpu volta-v100 --size 4K --ways 4 --write $w "$T/mix.gcs" >"$T/b$i/o.gcs"
		pairs+=("$T/a$i/o.gcs" "$T/b$i/o.gcs")
		# and counted, the classes deferred: the raw path's instance for
		# --stats (l1.c, l1_fast_stats) against the decoded path's
		var_pair GC_L1_DECODE "$T/s$i" "$T/mix.gcs" --gpu volta-v100 --size 4K --ways 4 \
			--write $w -v
	done
	# a stride stream (copy) through l1_fast_pf: each window is the last
	# moved on by a line, its lines looked for where the last left them
	# (sm.pfat); in one set of 4 ways (--size 512) a window's fills evict
	# its own lines, which are then probed and filled again
	gc-gen copy -n 64K | gc-sched --gpu volta-v100 | gc-coalesce >"$T/copy.gcs"
	for o in "--size 64K --prefetch-degree 4" "--size 512 --prefetch-degree 6" \
		"--size 2K --prefetch-degree 3 --prefetch-distance 2"; do
		i=$((i + 1))
		mkdir "$T/a$i" "$T/b$i"
		gc-l1 --ways 4 --sector 32 --prefetch stride $o "$T/copy.gcs" >"$T/a$i/o.gcs"
		GC_L1_DECODE=1 gc-l1 --ways 4 --sector 32 --prefetch stride $o "$T/copy.gcs" \
			>"$T/b$i/o.gcs"
		pairs+=("$T/a$i/o.gcs" "$T/b$i/o.gcs")
	done
	gc-l1 --ways 4 --sector 32 --prefetch stride --size 512 --prefetch-degree 6 \
		--stats "$T/copy.json" "$T/copy.gcs" >/dev/null
	same_pairs "GC_L1_DECODE against the raw path" "${pairs[@]}"
	# write-backs and bypassed requests were among the records compared
	# (the first case's --stats)
	jall "$T/1/a/s.json"
	[ "${J[to_l2.writebacks]}" -gt 0 ]
	[ "${J[bypasses]}" -gt 0 ]
	# prefetches went out, and were used, in the prefetcher's case
	jall "$T/5/a/s.json"
	[ "${J[prefetch.issued]}" -gt 0 ]
	[ "${J[prefetch.useful]}" -gt 0 ]
	grep -q "prefetch" "$T/5/a/e"
	# and on the copy in one set, some were evicted before use
	jall "$T/copy.json"
	[ "${J[prefetch.issued]}" -gt 0 ]
	[ "${J[prefetch.useless]}" -gt 0 ]
	# and misses of every class the functional model counts in the
	# --stats instance's runs (write-back, write-allocate)
	jall "$T/s10/a/s.json"
	[ "${J[classes.compulsory]}" -gt 0 ]
	[ "${J[classes.capacity]}" -gt 0 ]
	[ "${J[classes.conflict]}" -gt 0 ]
	[ "${J[classes.partial_write]}" -gt 0 ]
}

@test "functional: classes counted in batches per SM equal classes counted at once (GC_L1_CLASS_NOW)" {
	# without --emit all the functional model defers the shadow and the
	# seen lookups (l1_class_defer) and drains an SM's batch when 4096 of
	# its references wait, at kernel begins and ends, flushes and the
	# end: over 7 K references an SM in the gather, 2 kernels; partial
	# stores in the transposition and the mix (partial-write misses);
	# outputs, --stats and -v compared
	gc-gen gather -n 512K --kernels 2 | gc-sched --gpu volta-v100 --sms 3 | gc-coalesce >"$T/g.gcs"
	gc-gen transpose -n 1024 | gc-sched --gpu volta-v100 --sms 2 | gc-coalesce >"$T/t.gcs"
	mix_gcs
	pairs=() i=0
	while read -r f m; do
		i=$((i + 1))
		var_pair GC_L1_CLASS_NOW "$T/$i" "$T/$f.gcs" $m
	done <<-EOF
		g --size 16K --ways 4 --sector 32 -v
		g --size 8K --ways 2 --sector 32 --replacement fifo --kernel-boundary keep
		g --sets 8 --ways 8 --replacement random --write write-evict -v
		t --size 8K --ways 2 --sector 32 --write write-back --write-alloc write-allocate -v
		t --size 4K --ways 4 --write write-back --write-alloc fetch-on-write --kernel-boundary keep
		mix --gpu volta-v100 --sets 4 --ways 2 --index linear --write write-back -v
	EOF
	same_pairs "batched classes against classes at once" "${pairs[@]}"
	# every class of the functional model was counted
	jall "$T/1/a/s.json"
	[ "${J[classes.compulsory]}" -gt 0 ]
	[ "${J[classes.capacity]}" -gt 0 ]
	[ "${J[classes.conflict]}" -gt 0 ]
	jall "$T/6/a/s.json"
	[ "${J[classes.partial_write]}" -gt 0 ]
}

@test "functional: --stats classes drained on worker threads (--threads 3) equal those of one thread" {
	# with --threads N > 1 an SM's full queue (4096 references) goes to
	# N - 1 workers while the main thread fills the SM's other queue;
	# kernel ends and the end wait for every drain, and the drains' counts
	# are added then: 14 K references an SM a kernel here (3 SMs, 2
	# kernels), so each SM hands over three full batches a kernel and the
	# rest at its end; outputs, --stats and -v compared with --threads 1
	# (no worker), the classes and counts checked
	gc-gen gather -n 1M --kernels 2 | gc-sched --gpu volta-v100 --sms 3 | gc-coalesce >"$T/g.gcs"
	pairs=() i=0
	while read -r m; do
		i=$((i + 1))
		mkdir -p "$T/$i/a" "$T/$i/b"
		# shellcheck disable=SC2086 # the options
		(cd "$T/$i/a" && gc-l1 $m --threads 1 --stats s.json "$T/g.gcs" >o.gcs 2>e)
		# shellcheck disable=SC2086
		(cd "$T/$i/b" && gc-l1 $m --threads 3 --stats s.json "$T/g.gcs" >o.gcs 2>e)
		pairs+=("$T/$i/a/o.gcs" "$T/$i/b/o.gcs" "$T/$i/a/s.json" "$T/$i/b/s.json" "$T/$i/a/e" "$T/$i/b/e")
	done <<-EOF
		--size 16K --ways 4 --sector 32 -v
		--size 8K --ways 2 --sector 32 --replacement fifo --write write-back --kernel-boundary keep
	EOF
	same_pairs "--threads 1 against --threads 3" "${pairs[@]}"
	jall "$T/1/b/s.json"
	[ "${J[requests]}" -eq 84832 ]
	[ "${J[misses]}" -eq 84760 ]
	[ "${J[classes.compulsory]}" -eq 80906 ]
	[ "${J[classes.capacity]}" -eq 3846 ]
	[ "${J[classes.conflict]}" -eq 8 ]
	jall "$T/2/b/s.json"
	[ "${J[misses]}" -eq 84810 ]
	[ "${J[classes.compulsory]}" -eq 40453 ]
	[ "${J[classes.capacity]}" -eq 44343 ]
	[ "${J[classes.conflict]}" -eq 14 ]
}

# env_pair VAR DIR STREAM OPTION...: gc-l1 --timing --emit all OPTION...
# --stats s.json STREAM in DIR/a, and with VAR=1 in DIR/b (each run in its
# own directory, its --stats named s.json in both: the provenance names
# it); the two outputs and the two --stats go on the array pairs, for
# same_pairs to compare with one cksum at the end.
env_pair() {
	local var=$1 d=$2 f=$3
	shift 3
	mkdir -p "$d/a" "$d/b"
	cd "$d/a" || return 1
	gc-l1 --timing --emit all "$@" --stats s.json "$f" >a.gcs
	cd "$d/b" || return 1
	local -x "$var=1"
	gc-l1 --timing --emit all "$@" --stats s.json "$f" >a.gcs
	pairs+=("$d/a/a.gcs" "$d/b/a.gcs" "$d/a/s.json" "$d/b/s.json")
}

@test "timing: skipping the steps of blocked warps changes nothing (GC_L1_STEP_ALL)" {
	gc-gen rowcopy -n 128 | gc-sched | gc-coalesce >"$T/r.gcs"
	gc-gen matmul -n 32 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/m.gcs"
	pairs=()
	for f in r m; do
		i=0
		for m in "" "--mshr 4 --mshr-per-warp 2" "--mshr 16 --mshr-per-warp 4 --mshr-kind sector-assoc" \
			"--mshr-merge 2 --hit-latency 3"; do
			i=$((i + 1))
			env_pair GC_L1_STEP_ALL "$T/$f$i" "$T/$f.gcs" $m
		done
	done
	same_pairs "GC_L1_STEP_ALL against the skipping" "${pairs[@]}"
	# the second case stalls a lot: the skipping is exercised
	jall "$T/r2/a/s.json"
	[ "${J[mshr_stalls]}" -gt 1000 ]
}

@test "timing: SMs stepped ahead of the global order change nothing (GC_L1_IN_ORDER)" {
	# SMs run ahead, stop for input (a transposition longer than its
	# window), wait with a free block slot (a gather in GTO order, a small
	# window: stepped ahead anyway, it takes 5241 cycles, not 5169), over
	# several kernels, small MSHRs; under both --dispatch rules (free: the
	# SMs stepped apart in rounds, GC_L1_IN_ORDER interleaving the steps
	# of a round in (time, SM) order, the threads SM after SM)
	gc-gen transpose -n 640 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/tr.gcs"
	gc-gen gather -n 64K --gpu volta-v100 | gc-sched --policy gto | gc-coalesce >"$T/ga.gcs"
	gc-gen copy -n 32K --kernels 3 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/cp.gcs"
	bfs_gcs
	# --threads N steps them in parallel phases: the same bytes for every
	# N (the provenance leaves --threads out); the errors too (a window
	# too small), and the prefetcher's records written ahead
	# (each run in its own directory, its --stats named s.json in all:
	# the provenance names it)
	mkdir "$T"/{1,2,3,4,5,6,7,8,9,10}{,1,2,3,8}
	nerr=0 c=0
	pairs=()
	while read -r d f m; do
		c=$((c + 1))
		p=$T/$f.gcs
		[ "$f" != bfs ] || p=$BFSGCS
		rc=0
		cd "$T/$c"
		# free: rounds that read 4000 records each, all N alike
		if [ "$d" = free ]; then export GC_L1_FREE_READ=4000; else unset GC_L1_FREE_READ; fi
		GC_L1_IN_ORDER=1 gc-l1 --timing --dispatch $d $m --stats s.json "$p" >"$T/o$c.gcs" 2>"$T/e$c" || rc=$?
		if [ "$rc" -ne 0 ]; then
			expect_match "$(cat "$T/e$c")" "raise --window"
			nerr=$((nerr + 1))
		fi
		for n in "--threads 1" "--threads 2" "--threads=3" "--threads 8"; do
			r=0
			x=$c${n//[^0-9]/}
			cd "$T/$x"
			gc-l1 --timing $n --dispatch $d $m --stats s.json "$p" >"$T/o$x.gcs" 2>"$T/e$x" || r=$?
			expect_eq "$f $n: $r" "$f $n: $rc"
			pairs+=("$T/o$c.gcs" "$T/o$x.gcs" "$T/e$c" "$T/e$x")
			[ "$rc" -ne 0 ] || pairs+=("$T/$c/s.json" "$T/$x/s.json")
		done
	done <<-EOF
		read tr --window 100000 --write write-back --write-alloc fetch-on-write --size 8K --ways 2 --mshr 8 --prefetch stride -v
		read tr --window 30000
		read ga --window 5000 --emit all
		read bfs --window 2000 --gpu fermi-gtx470-48k -v
		read cp --size 4K --ways 2 --mshr 8 --mshr-merge 2 --kernel-boundary flush --emit all
		free tr --window 100000 --write write-back --write-alloc fetch-on-write --size 8K --ways 2 --mshr 8 --prefetch stride -v
		free tr --window 30000
		free ga --window 5000 --emit all
		free bfs --window 2000 --gpu fermi-gtx470-48k -v
		free cp --size 4K --ways 2 --mshr 8 --mshr-merge 2 --kernel-boundary flush --emit all
	EOF
	expect_eq "$nerr" 2 # tr --window 30000, both rules
	# case C at --threads N is CN: o (stream), e (stderr), s.json (--stats)
	same_pairs "GC_L1_IN_ORDER against --threads" "${pairs[@]}"
	# the records buffered at most, main's binary's (the merge of a
	# round's output runs in the next round; the records it passes leave
	# the count at the end of the round, as they did, or the next round
	# reads less: 230400 when the merge counted them)
	expect_eq "$(jv peak_buffered "$T/6/s.json")" 187858
	# the free rule: the first record the content says is late (the
	# read rule found another first, at 33108)
	expect_match "$(cat "$T/e7")" "record 32836: block 212 warp 1 has a request after the timing model ended the warp or started its block"
	# the gather's small window changes nothing under the free rule (its
	# blocks start when a slot frees, whenever they were read); the read
	# rule's slots waited for the reading (68855 misses against 66209)
	cd "$T/8"
	unset GC_L1_FREE_READ
	gc-l1 --timing --emit all --stats w.json "$T/ga.gcs" >"$T/ga-1M.gcs"
	gc-stats --dump "$T/ga-1M.gcs" | grep -v '^#' >"$T/a"
	gc-stats --dump "$T/o8.gcs" | grep -v '^#' >"$T/b"
	expect_same "$T/a" "$T/b" "the free rule, --window 5000 and 1M"
	expect_eq "$(jv misses "$T/8/w.json")" 68855
	expect_eq "$(jv misses "$T/3/s.json")" 66209
}

@test "timing: the steps' instance for the common configuration changes nothing (GC_L1_GENERIC)" {
	# the instance (4 ways, LRU, linear index over 2^n sets, --dispatch
	# free, no --stats, --emit all, report or prefetcher; a block's warps
	# in an array) against the path that tests every option (the list
	# of the block's warps walked): stalls and retries (small MSHRs,
	# sector MSHRs, a per-warp limit), fills with dirty victims, every
	# write policy, bypassed, shared and atomic requests, several kernels
	gc-gen matmul -n 48 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/m.gcs"
	gc-gen transpose -n 256 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/t.gcs"
	# blocks of 64 warps: past the 32 a block keeps in an array
	gc-gen transpose -n 128 --block 1024 --warp-size 16 | gc-sched --gpu volta-v100 |
		gc-coalesce >"$T/w.gcs"
	mix_gcs
	L="--ways 4 --index linear --sector 32"
	pairs=() i=0
	while read -r f m; do
		i=$((i + 1))
		mkdir -p "$T/$i/a" "$T/$i/b"
		cd "$T/$i/a"
		gc-l1 --timing $L $m "$T/$f.gcs" >o.gcs 2>e
		cd "$T/$i/b"
		GC_L1_GENERIC=1 gc-l1 --timing $L $m "$T/$f.gcs" >o.gcs 2>e
		pairs+=("$T/$i/a/o.gcs" "$T/$i/b/o.gcs" "$T/$i/a/e" "$T/$i/b/e")
	done <<-EOF
		m --sets 16 --mshr 8 --mshr-merge 2
		m --size 4K --mshr 16 --mshr-kind sector-assoc --mshr-per-warp 4
		m --size 4K --write write-evict --mshr 4
		m --size 8K --write write-back --write-alloc write-allocate --mshr 8 --mshr-merge 1
		t --size 64K
		w --size 64K --mshr 8
		mix --sets 2 --write write-back --write-alloc fetch-on-write --mshr 3 --mshr-per-warp 0 --miss-latency 40 --sigma 3
		mix --sets 4 --write write-through --write-alloc write-allocate --mshr 4 --mshr-per-warp 0 --mshr-kind sector-assoc
	EOF
	same_pairs "GC_L1_GENERIC against the instance" "${pairs[@]}"
	# the matmul on 8 MSHRs retries: the dry runs are exercised
	cd "$T/1/a"
	gc-l1 --timing $L --sets 16 --mshr 8 --mshr-merge 2 --stats s.json "$T/m.gcs" >/dev/null
	jall s.json
	[ "${J[mshr_stalls]}" -gt 1000 ]
}

@test "timing: a block's warps queue by warp id, whatever order they come in (hand-worked)" {
	# One block of 4 warps, first seen in the order 3, 1, 0, 2, each
	# with one load of its own line.  --dispatch free starts the block
	# once its warps are known, queued by id: they issue at 0, 1, 2, 3
	# in the order 0, 1, 2, 3, from the block's array of warps and
	# (GC_L1_GENERIC) its list.  --dispatch read starts it on its first
	# record, each warp joining as it is read: the order 3, 1, 0, 2.
	mk wo <<-EOF
	K 1 wo 128 0 8
	0 0 3 0 load 0x1000 0x1 4 0
	0 0 1 0 load 0x2000 0x1 4 0
	0 0 0 0 load 0x3000 0x1 4 0
	0 0 2 0 load 0x4000 0x1 4 0
	EOF
	printf '%s\n' "0x3000 0 miss/compulsory" "0x2000 1 miss/compulsory" \
		"0x4000 2 miss/compulsory" "0x1000 3 miss/compulsory" >"$T/free"
	printf '%s\n' "0x1000 0 miss/compulsory" "0x2000 1 miss/compulsory" \
		"0x3000 2 miss/compulsory" "0x4000 3 miss/compulsory" >"$T/read"
	L="--timing --emit all --sigma 0 --miss-latency 100 --sets 4 --ways 4 --index linear"
	for d in free read; do
		for g in "" GC_L1_GENERIC=1; do
			env $g gc-l1 $L --dispatch $d "$T/wo.gcs" >"$T/o.gcs"
			outcomes "$T/o.gcs" >"$T/got"
			diff "$T/$d" "$T/got"
		done
	done
}

@test "timing: --threads must be a count of at least 1 (a usage error naming it)" {
	gc-gen strided --loads 8 | gc-sched | gc-coalesce >"$T/r.gcs"
	for v in 0 x 2x ""; do
		sh_status 2 "gc-l1 --timing --threads '$v' '$T/r.gcs'"
		expect_match "$(cat "$T/err")" "^gc-l1: --threads"
		[ ! -s "$T/out" ]
	done
}

@test "timing: retries that look again only at changed lines change nothing (GC_L1_LOOK_ALL)" {
	# stalls on every kind of line change a waiting request depends on:
	# fills, victims (a small L1), new and merged misses, stores that
	# validate (write-allocate) or invalidate (write-evict) lines
	gc-gen matmul -n 48 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/m.gcs"
	gc-gen stencil2d -n 96 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/s.gcs"
	gc-gen spmv -n 3000 --gpu volta-v100 | gc-sched | gc-coalesce >"$T/p.gcs"
	pairs=()
	for f in m s p; do
		i=0
		for m in "--mshr 8 --mshr-merge 2" "--mshr 16 --mshr-kind sector-assoc --mshr-per-warp 4" \
			"--size 4K --ways 2 --mshr 8" "--size 4K --ways 4 --write write-evict --mshr 4" \
			"--size 8K --ways 2 --write write-back --write-alloc write-allocate --mshr 8 --mshr-merge 1"; do
			i=$((i + 1))
			env_pair GC_L1_LOOK_ALL "$T/$f$i" "$T/$f.gcs" $m
		done
	done
	# random loads and stores over a few lines of a 2 x 2 L1, every policy
	awk -v SEED=3 -f "$L1FIX/mix.awk" | mk mix
	L="--sets 2 --ways 2 --index linear --mshr-per-warp 0 --miss-latency 40 --sigma 3"
	i=0
	for m in "--write write-evict --mshr 3" "--write write-back --write-alloc write-allocate --mshr 3" \
		"--write write-back --write-alloc fetch-on-write --mshr 2 --mshr-merge 1" \
		"--write write-through --write-alloc write-allocate --mshr 4 --mshr-kind sector-assoc"; do
		i=$((i + 1))
		env_pair GC_L1_LOOK_ALL "$T/x$i" "$T/mix.gcs" $L $m
	done
	same_pairs "GC_L1_LOOK_ALL against the changed-line retries" "${pairs[@]}"
	# the cases stall: retries are exercised (the stencil on a 4K 2-way L1
	# more than 1000 times, each random mix more than 10000 times)
	gc-stats --merge "$T/s3/a/s.json" "$T"/x[1-4]/a/s.json >"$T/stalls.csv"
	run awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "mshr_stalls") c = i; next }
		{ min = NR == 2 ? 1000 : 10000; if (!c || !($c > min)) print $1 ": mshr_stalls " (c ? $c : "missing") ", not above " min }' "$T/stalls.csv"
	expect_empty "$output" "cases that stall too little"
	expect_eq "${#lines[@]}$status" 00
}

@test "timing: a waiting request looks again when its line changes (hand-worked)" {
	# 2 MSHRs.  t0 warp 0 misses on 0x1000; t1 warp 1 needs 0x2000 and
	# 0x3000 (2 entries, 1 free): cancelled; t2 warp 2 misses on 0x2000
	# (the last entry).  0x2000 is now in flight, so at 100, when 0x1000
	# returns, warp 1 needs only 1 entry: it issues, merging with 0x2000.
	mk nm <<-EOF
	K 1 nm 96 0 8
	0 0 0 0 load 0x1000 0x1 4 0
	0 0 1 0 load 0x2000 0x1 4 0
	0 0 1 0 load 0x3000 0x1 4 0
	0 0 2 0 load 0x2000 0x1 4 0
	EOF
	L="--timing --emit all --sigma 0 --miss-latency 100 --sets 4 --ways 4 --index linear --mshr-per-warp 0"
	gc-l1 $L --mshr 2 "$T/nm.gcs" >"$T/o.gcs"
	outcomes "$T/o.gcs" >"$T/got"
	printf '%s\n' "0x1000 0 miss/compulsory" "0x2000 2 miss/compulsory" "0x2000 100 miss/latency" \
		"0x3000 100 miss/mshr" >"$T/want"
	diff "$T/want" "$T/got"
	# 3 MSHRs, 2 requests an entry.  t0 warp 0 misses on 0x1000, t1 warp 1
	# on 0x2000; t2 warp 2 needs 0x2000 (a merge) and 0x3000, 0x4000 (2
	# entries, 1 free): cancelled; t3 warp 3 merges with 0x2000, which is
	# now full.  At 100 0x1000 returns (2 entries free), but warp 2 cannot
	# merge any more: it waits for 0x2000 (101), then hits it.
	mk mg <<-EOF
	K 1 mg 128 0 8
	0 0 0 0 load 0x1000 0x1 4 0
	0 0 1 0 load 0x2000 0x1 4 0
	0 0 2 0 load 0x2000 0x1 4 0
	0 0 2 0 load 0x3000 0x1 4 0
	0 0 2 0 load 0x4000 0x1 4 0
	0 0 3 0 load 0x2000 0x1 4 0
	EOF
	gc-l1 $L --mshr 3 --mshr-merge 2 "$T/mg.gcs" >"$T/o.gcs"
	outcomes "$T/o.gcs" >"$T/got"
	printf '%s\n' "0x1000 0 miss/compulsory" "0x2000 1 miss/compulsory" "0x2000 3 miss/latency" \
		"0x2000 101 hit" "0x3000 101 miss/mshr" "0x4000 101 miss/mshr" >"$T/want"
	diff "$T/want" "$T/got"
}

@test "timing: sector MSHRs count sectors; a merge adds the sectors the miss lacks" {
	# 4 sector MSHR entries: warp 0 misses on sectors 0-1 of line 0 (2
	# entries), warp 1 asks for sectors 0-3 of it: it merges and adds
	# sectors 2-3 (2 more entries, a read of them), warp 2 misses on line 1
	# (1 sector): no entry left, cancelled until line 0 returns at 100.
	mk s <<-EOF
	K 1 k 96 0 8
	0 0 0 0 load 0x000 0x3 64 0
	0 0 1 0 load 0x000 0xf 128 1
	0 0 2 0 load 0x080 0x1 32 2
	EOF
	gc-l1 --timing --emit all --sigma 0 --miss-latency 100 --mshr 4 --mshr-per-warp 4 --sector 32 \
		--mshr-kind sector-assoc --stats "$T/s.json" "$T/s.gcs" >"$T/o.gcs"
	outcomes "$T/o.gcs" >"$T/got"
	printf '%s\n' "0x0 0 miss/compulsory" "0x0 1 miss/latency" "0x80 100 miss/mshr" >"$T/want"
	diff "$T/want" "$T/got"
	gc-l1 --timing --sigma 0 --miss-latency 100 --mshr 4 --mshr-per-warp 4 --sector 32 \
		--mshr-kind sector-assoc "$T/s.gcs" >"$T/l2.gcs"
	rows "$T/l2.gcs" | awk '{ print $1, $2, $3, $5 }' >"$T/got"
	printf '%s\n' "load 0x0 0x3 0" "load 0x0 0xc 1" "load 0x80 0x1 100" >"$T/want"
	diff "$T/want" "$T/got"
	expect_eq "$(jget "$T/s.json" merged)" 1
	expect_eq "$(jget "$T/s.json" mshr_stalls)" 98
}

@test "adaptive L1 with --kernel-boundary keep: a resize writes dirty sectors back in the new kernel" {
	mk v <<-EOF
	K 1 a 256 0 32
	0 0 0 0 store 0x1000 0xf 128 0 local
	K 2 b 256 20480 32
	0 0 0 0 load 0x1000 0xf 128 0 local
	EOF
	for m in "" "--timing"; do
		gc-l1 --gpu volta-v100 --write write-back --kernel-boundary keep $m \
			--stats "$T/s.json" "$T/v.gcs" >"$T/o.gcs"
		gc-stats --dump "$T/o.gcs" | awk -F, '!/^#/ && $1 != "" && $1 != "kernel" {
			print $1 "," $8 "," $10 "," $12 }' >"$T/got"
		# kernel 1 keeps its dirty line; kernel 2's smaller L1 is a new
		# cache: the line is written back inside kernel 2, then read
		printf '%s\n' "1,kbegin,," "1,kend,," "2,kbegin,," "2,store,0x1000,0xf" \
			"2,load,0x1000,0xf" "2,kend,," >"$T/want"
		diff "$T/want" "$T/got" || { cat "$T/got"; false; }
		expect_eq "$(jget "$T/s.json" to_l2.writebacks)" 1
	done
}

@test "gc-l1: the preset's l1.kernel_flush sets the default --kernel-boundary" {
	gc-gen -n 32 matmul --kernels 2 | gc-sched --gpu volta-v100 | gc-coalesce >"$T/r.gcs"
	sed 's/^l1.kernel_flush = yes/l1.kernel_flush = no/' "$GC_ROOT/share/gpus/volta-v100.gpu" >"$T/keep.gpu"
	gc-l1 --kernel-boundary flush "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/flush"
	gc-l1 --kernel-boundary keep "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/keep"
	gc-l1 "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/default"
	gc-l1 --gpu "$T/keep.gpu" "$T/r.gcs" | gc-stats --dump | grep -v '^#' >"$T/preset"
	expect_differ "$T/flush" "$T/keep" "flush and keep"
	cmp "$T/default" "$T/flush"
	cmp "$T/preset" "$T/keep"
}

@test "gc-l1: the output rule: --emit none, --report FILE (gc(7))" {
	gc-gen matmul -n 32 | gc-sched --gpu volta-v100 | gc-coalesce >"$T/r.gcs"
	output_rule "gc-l1 '$T/r.gcs'"
	# the requests of the report are the input's data records
	n=$(rows "$T/r.gcs" | wc -l | tr -d ' ')
	expect_match "$(sed -n 2p "$T/rule.r")" "^gc-l1: requests $n: "
	# --emit all and none are the same model: the same report
	gc-l1 --emit all -v "$T/r.gcs" 2>"$T/va" >/dev/null
	expect_same "$T/rule.r" "$T/va" "--emit all -v"
	sh_status 2 "gc-l1 --emit dram '$T/r.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-l1: --emit: 'dram' is not l2, all or none"
}
