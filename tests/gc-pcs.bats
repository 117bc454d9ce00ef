#!/usr/bin/env bats
# Per-PC tables keyed by (kernel name, PC): gc-l1's and gc-l2's --stats
# "pcs" and -v tables with --top, and gc-stats --by pc|kernel|launch.
#
# Hand-built streams (tests/fixtures/l1/mkreq.awk) where two kernel
# functions use one PC and one function is launched twice, their misses
# worked out by hand; the BFS trace checked against awk over the dump.

load helpers

# mk NAME: the request stream $T/NAME.gcs from mkreq.awk lines on stdin.
mk() {
	awk -f "$FIX/l1/mkreq.awk" >"$T/$1.csv" && gc-import -f csv "$T/$1.csv" >"$T/$1.gcs"
}

# rows FILE: the table rows of a -v report as "pc requests hits misses
# hit-rate miss% cumul% kernel" (the opcode column left out).
rows() {
	awk '$2 ~ /^0x/ { print $2, $4, $5, $6, $7, $8, $9, $10 }' "$1"
}

# The SASS opcodes of BFS's memory instructions, found by hand in the
# .traceg files (xzcat kernel-N.traceg.xz | grep -E '^0(190|270|0a0) '):
# Kernel (kernel-1) 0x190 LDG.E.SYS, 0x270 STG.E.U8.SYS; Kernel2
# (kernel-2) 0x190 STG.E.U8.SYS, 0xa0 LDG.E.U8.SYS.
OPS_RE='0x(190|270|a0) '
K1=_Z6KernelP4NodePiPbS2_S2_S1_i
K2=_Z7Kernel2PbS_S_S_i

# A huge, cold, fully associative L1 of whole lines where every access
# allocates: a request misses exactly when its (SM, line) is new (since
# the last kernel boundary with flush).
FA="--gpu volta-v100 --sets 1 --ways 16384 --index linear --sector 128 --replacement lru
    --write write-back --write-alloc fetch-on-write --skip-global no"

# kA launched twice (ids 1 and 3) and kB, both with code at PC 0x10.
two_kernels() {
	mk two <<-'EOF'
	K 1 kA 32 0 8
	0 0 0 0 load  0x1000 0xf 128 0 global 0 0x10
	0 0 0 1 load  0x1000 0xf 128 1 global 0 0x10
	0 0 0 2 load  0x2000 0xf 128 2 global 0 0x20
	K 2 kB 32 0 8
	0 0 0 0 store 0x3000 0xf 128 3 global 0 0x10
	0 0 0 1 store 0x3080 0xf 128 4 global 0 0x10
	0 0 0 2 store 0x3000 0xf 128 5 global 0 0x10
	K 3 kA 32 0 8
	0 0 0 0 load  0x1000 0xf 128 6 global 0 0x10
	EOF
}

@test "gc-l1: one PC in two kernels is two rows, two launches of one kernel one row (flush)" {
	two_kernels
	# kA 0x10: miss, hit, and after the flush a miss again; kA 0x20: a miss;
	# kB 0x10: two new lines (misses), then a hit.  5 misses: 2, 2, 1, the
	# tie of 2 broken by kernel name.
	gc-l1 $FA --kernel-boundary flush -v "$T/two.gcs" 2>"$T/err" >/dev/null
	expect_eq "$(grep 'per PC' "$T/err")" \
		"gc-l1: per PC, by misses: 3 of 3 (kernel, PC) rows, 5 misses in all"
	# a stream without opcode records: "-" in the opcode column
	expect_eq "$(awk '$2 ~ /^0x/ { print $3 }' "$T/err" | tr '\n' ' ')" "- - - "
	rows "$T/err" >"$T/r"
	cat >"$T/want" <<-'EOF'
	0x10 3 1 2 0.3333 40.00% 40.00% kA
	0x10 3 1 2 0.3333 40.00% 80.00% kB
	0x20 1 0 1 0.0000 20.00% 100.00% kA
	EOF
	diff -u "$T/want" "$T/r"
}

@test "gc-l1: --kernel-boundary keep: kA's second launch hits, the order follows the misses" {
	two_kernels
	gc-l1 $FA --kernel-boundary keep -v "$T/two.gcs" 2>"$T/err" >/dev/null
	rows "$T/err" >"$T/r"
	# 4 misses: kB 0x10 2, kA 0x10 1, kA 0x20 1 (tie: the lower PC first)
	cat >"$T/want" <<-'EOF'
	0x10 3 1 2 0.3333 50.00% 50.00% kB
	0x10 3 2 1 0.6667 25.00% 75.00% kA
	0x20 1 0 1 0.0000 25.00% 100.00% kA
	EOF
	diff -u "$T/want" "$T/r"
}

@test "gc-l1: --stats pcs: kernel, pc, opcode, requests, hits, misses, hit_rate, miss_share" {
	two_kernels
	gc-l1 $FA --kernel-boundary flush --stats "$T/s.json" "$T/two.gcs" >/dev/null
	tr -d ' \n' <"$T/s.json" | grep -o '"pcs":\[[^]]*\]' >"$T/pcs"
	expect_eq "$(cat "$T/pcs")" '"pcs":[{"kernel":"kA","pc":"0x10","opcode":null,"requests":3,"hits":1,"misses":2,"hit_rate":0.333333,"miss_share":0.4},{"kernel":"kB","pc":"0x10","opcode":null,"requests":3,"hits":1,"misses":2,"hit_rate":0.333333,"miss_share":0.4},{"kernel":"kA","pc":"0x20","opcode":null,"requests":1,"hits":0,"misses":1,"hit_rate":0,"miss_share":0.2}]'
}

@test "gc-l1: --top N, --top 0 (all), and a bad N (usage error)" {
	two_kernels
	gc-l1 $FA --kernel-boundary flush --top 1 -v --stats "$T/s.json" "$T/two.gcs" 2>"$T/err" >/dev/null
	expect_eq "$(grep 'per PC' "$T/err")" \
		"gc-l1: per PC, by misses: 1 of 3 (kernel, PC) rows, 5 misses in all"
	expect_eq "$(rows "$T/err")" "0x10 3 1 2 0.3333 40.00% 40.00% kA"
	expect_eq "$(grep -c '"pc":' "$T/s.json")" 1
	gc-l1 $FA --kernel-boundary flush --top 0 -v --stats "$T/s.json" "$T/two.gcs" 2>"$T/err" >/dev/null
	expect_eq "$(rows "$T/err" | wc -l)" 3
	expect_eq "$(grep -c '"pc":' "$T/s.json")" 3
	for bad in x -1 1.5 ''; do
		sh_status 2 "gc-l1 --top '$bad' '$T/two.gcs'"
		expect_eq "$(head -1 "$T/err")" "gc-l1: --top: '$bad' is not a number"
		[ ! -s "$T/out" ]
	done
}

@test "gc-l2: the same table, keyed by (kernel name, PC) of the requests it reads" {
	# Loads only, 32-byte sectors: kA 0x10 a miss, a hit (sectors 0-1 of
	# a line fetched whole), kA 0x20 a miss, kB 0x10 a miss, a hit, a
	# sector miss (sector 1 of 0x2000, absent either way), kA again a miss.
	mk l2 <<-'EOF'
	K 1 kA 32 0 8
	0 0 0 0 load 0x1000 0xf 128 0 global 0 0x10
	0 0 0 1 load 0x1000 0x3 64  1 global 0 0x10
	0 0 0 2 load 0x2000 0x1 32  2 global 0 0x20
	K 2 kB 32 0 8
	0 0 0 0 load 0x3000 0xf 128 3 global 0 0x10
	0 0 0 1 load 0x3000 0xf 128 4 global 0 0x10
	0 0 0 2 load 0x2000 0x2 32  5 global 0 0x10
	K 3 kA 32 0 8
	0 0 0 0 load 0x5000 0xf 128 6 global 0 0x10
	EOF
	gc-l2 --gpu volta-v100 -v --stats "$T/s.json" "$T/l2.gcs" 2>"$T/err" >/dev/null
	expect_eq "$(grep 'per PC' "$T/err")" \
		"gc-l2: per PC, by misses: 3 of 3 (kernel, PC) rows, 5 misses in all"
	rows "$T/err" >"$T/r"
	cat >"$T/want" <<-'EOF'
	0x10 3 1 2 0.3333 40.00% 40.00% kA
	0x10 3 1 2 0.3333 40.00% 80.00% kB
	0x20 1 0 1 0.0000 20.00% 100.00% kA
	EOF
	diff -u "$T/want" "$T/r"
	tr -d ' \n' <"$T/s.json" | grep -o '"pcs":\[[^]]*\]' >"$T/pcs"
	expect_match "$(cat "$T/pcs")" '^"pcs":\[\{"kernel":"kA","pc":"0x10","opcode":null,"requests":3,"hits":1,"misses":2,"hit_rate":0.333333,"miss_share":0.4\},'
	gc-l2 --gpu volta-v100 --top 2 -v "$T/l2.gcs" 2>"$T/err" >/dev/null
	expect_eq "$(rows "$T/err" | wc -l)" 2
	sh_status 2 "gc-l2 --top x '$T/l2.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-l2: --top: 'x' is not a number"
	[ ! -s "$T/out" ]
}

# fa_awk KEEP: from a --dump of requests on stdin, per (kernel name, PC)
# of the loads and stores "pc requests hits misses kernel" for the fully
# associative L1 above, most misses first, then name, then PC.
fa_awk() {
	awk -F, -v keep="$1" '
	function hex(s,   i, n) {
		n = 0; s = tolower(substr(s, 3))
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n
	}
	/^#/ || $1 == "kernel" { next }
	$8 == "kbegin" { name = $16; gsub(/"/, "", name); if (!keep) split("", seen); next }
	$8 == "load" || $8 == "store" {
		k = name SUBSEP $6; req[k]++
		if (($2 SUBSEP $10) in seen) hit[k]++; else { seen[$2 SUBSEP $10] = 1; miss[k]++ }
	}
	END { for (k in req) { split(k, a, SUBSEP)
		print miss[k] + 0, a[1], hex(a[2]), a[2], req[k], hit[k] + 0, miss[k] + 0 } }' |
		sort -k1,1nr -k2,2 -k3,3n | awk '{ print $4, $5, $6, $7, $2 }'
}

@test "gc-l1: BFS's per-PC table equals a count of first touches per (SM, line) over the dump" {
	bfs_front "$T/bfs.gcs"
	# only global loads and stores, none flagged: every request is looked up
	gc-stats --dump "$T/bfs.gcs" >"$T/dump"
	expect_eq "$(awk -F, '!/^#/ && $1 != "kernel" && $8 != "kbegin" && $8 != "kend" &&
		$8 != "end" && $8 != "opcode" { print $8, $9, $15 }' "$T/dump" | sort -u | tr '\n' ' ')" \
		"load global 0 store global 0 "
	for kb in flush keep; do
		keep=0
		[ $kb = keep ] && keep=1
		fa_awk $keep <"$T/dump" >"$T/want"
		gc-l1 $FA --kernel-boundary $kb --top 0 -v "$T/bfs.gcs" 2>"$T/err" >/dev/null
		# nothing evicted: every miss is a first touch
		grep -q 'misses by class: compulsory [0-9]* capacity 0 conflict 0 ' "$T/err"
		rows "$T/err" | awk '{ print $1, $2, $3, $4, $8 }' >"$T/got"
		diff -u "$T/want" "$T/got"
	done
	# (kernel name, PC) with its opcode: 0x190 a load of one kernel, a
	# store of the other; the counts those of the diff above
	grep -E "^gc-l1: +$OPS_RE" "$T/err" >"$T/op"
	cat >"$T/opwant" <<-EOF
	gc-l1: 0x190 LDG.E.SYS       14768 13994    774   0.9476  29.70%  65.20%  $K1
	gc-l1: 0x270 STG.E.U8.SYS     7347  7122    225   0.9694   8.63%  92.52%  $K1
	gc-l1:  0xa0 LDG.E.U8.SYS     1024   993     31   0.9697   1.19%  98.73%  $K2
	gc-l1: 0x190 STG.E.U8.SYS      549   541      8   0.9854   0.31% 100.00%  $K2
	EOF
	diff -u "$T/opwant" "$T/op"
	# PC 0x190 is a load of Kernel and a store of Kernel2: two rows
	expect_eq "$(grep -c '^0x190 ' "$T/got")" 2
	expect_eq "$(wc -l <"$T/got")" 16
	# --top 10: the first ten of them
	gc-l1 $FA --kernel-boundary keep -v "$T/bfs.gcs" 2>"$T/err" >/dev/null
	rows "$T/err" | awk '{ print $1, $2, $3, $4, $8 }' >"$T/got10"
	head -10 "$T/want" | diff -u - "$T/got10"
}

@test "gc-l2: BFS's rows count the requests gc-l1 sends, by their (kernel name, PC)" {
	bfs_front "$T/bfs.gcs"
	gc-l1 --gpu volta-v100 "$T/bfs.gcs" >"$T/l1.gcs"
	gc-stats --dump "$T/l1.gcs" | awk -F, '/^#/ || $1 == "kernel" { next }
		$8 == "kbegin" { name = $16; gsub(/"/, "", name); next }
		$8 == "load" || $8 == "store" || $8 == "atomic" { n[$6 " " name]++ }
		END { for (k in n) print k, n[k] }' | sort >"$T/want"
	gc-l2 --gpu volta-v100 --top 0 -v "$T/l1.gcs" 2>"$T/err" >/dev/null
	rows "$T/err" | awk '{ print $1, $8, $2 }' | sort >"$T/got"
	diff -u "$T/want" "$T/got"
	# the opcodes came through gc-l1's output (its opcode records)
	grep -E "^gc-l2: +$OPS_RE" "$T/err" >"$T/op"
	cat >"$T/want" <<-EOF
	gc-l2: 0x190 LDG.E.SYS        3610 1284   2326   0.3557  55.66%  55.66%  $K1
	gc-l2:  0xa0 LDG.E.U8.SYS     1024  896    128   0.8750   3.06%  99.74%  $K2
	gc-l2: 0x270 STG.E.U8.SYS     7347 7337     10   0.9986   0.24%  99.98%  $K1
	gc-l2: 0x190 STG.E.U8.SYS      549  548      1   0.9982   0.02% 100.00%  $K2
	EOF
	diff -u "$T/want" "$T/op"
	[ "$(wc -l <"$T/got")" -gt 5 ]
}

@test "gc-stats --by pc: a kernel function's launches together, by name; --by launch apart" {
	two_kernels
	gc-stats --by pc "$T/two.gcs" | sed -n '/^by pc$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by pc
	     pc  opcode  records  loads  stores  atomics  bytes  kernel
	   0x10       -        3      3       0        0    384  kA
	   0x20       -        1      1       0        0    128  kA
	   0x10       -        3      0       3        0    384  kB
	EOF
	diff -u "$T/want" "$T/r"
	gc-stats --by pc --by launch "$T/two.gcs" | sed -n '/^by pc and launch$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by pc and launch
	   launch    pc  opcode  records  loads  stores  atomics  bytes  kernel
	        1  0x10       -        2      2       0        0    256  kA
	        1  0x20       -        1      1       0        0    128  kA
	        2  0x10       -        3      0       3        0    384  kB
	        3  0x10       -        1      1       0        0    128  kA
	EOF
	diff -u "$T/want" "$T/r"
	# the order of the two --by does not matter
	gc-stats --by launch --by pc "$T/two.gcs" | sed -n '/^by pc and launch$/,$p' | diff -u "$T/want" -
	gc-stats --by kernel "$T/two.gcs" | sed -n '/^by kernel$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by kernel
	   records  loads  stores  atomics  bytes  kernel
	         4      4       0        0    512  kA
	         3      0       3        0    384  kB
	EOF
	diff -u "$T/want" "$T/r"
	gc-stats --json --by pc "$T/two.gcs" | tr -d ' \n' >"$T/flat"
	expect_match "$(cat "$T/flat")" '"by":"pc","breakdown":\[\{"kernel":"kA","pc":"0x10","opcode":null,"records":3,"loads":3,"stores":0,"atomics":0,"bytes":384\},'
	gc-stats --json --by launch --by pc "$T/two.gcs" | tr -d ' \n' >"$T/flat"
	expect_match "$(cat "$T/flat")" '"by":"pc\+launch","breakdown":\[\{"kernel":"kA","launch":1,"pc":"0x10","opcode":null,"records":2,'
	sh_status 2 "gc-stats --by pc --by sm '$T/two.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-stats: --by pc and --by sm: one breakdown at a time (launch goes with pc)"
	[ ! -s "$T/out" ]
}

@test "opcodes from a dump's opcode lines: one per (kernel name, PC), * where launches disagree" {
	two_kernels
	# kA's first launch names 0x10 LDG.E, its second LDG.E.64; kB 0x10
	# STG.E; kA's 0x20 is named by none
	awk '/^# required / { $3 = "0x1" }
	/^1,.*,kend,/ { print "1,,,,,0x10,,opcode,,,,,,,,\"LDG.E\"," }
	/^2,.*,kend,/ { print "2,,,,,0x10,,opcode,,,,,,,,\"STG.E\"," }
	/^3,.*,kend,/ { print "3,,,,,0x10,,opcode,,,,,,,,\"LDG.E.64\"," }
	/,end,/ { sub(/records=16 /, "records=19 ") }
	{ print }' "$T/two.csv" >"$T/ops.csv"
	gc-import "$T/ops.csv" >"$T/ops.gcs"
	gc-stats --by pc "$T/ops.gcs" | sed -n '/^by pc$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by pc
	     pc  opcode  records  loads  stores  atomics  bytes  kernel
	   0x10       *        3      3       0        0    384  kA
	   0x20       -        1      1       0        0    128  kA
	   0x10   STG.E        3      0       3        0    384  kB
	EOF
	diff -u "$T/want" "$T/r"
	gc-l1 $FA --kernel-boundary flush -v "$T/ops.gcs" 2>"$T/err" >/dev/null
	expect_eq "$(awk '$2 ~ /^0x/ { print $2, $3, $NF }' "$T/err" | tr '\n' ' ')" \
		"0x10 * kA 0x10 STG.E kB 0x20 - kA "
}

@test "gc-stats --by pc: BFS's rows equal a count over the dump by (kernel name, PC)" {
	bfs_front "$T/bfs.gcs"
	gc-stats --dump "$T/bfs.gcs" | awk -F, '/^#/ || $1 == "kernel" { next }
		$8 == "kbegin" { name = $16; gsub(/"/, "", name); next }
		$8 == "load" || $8 == "store" { n[$6 " " name]++ }
		END { for (k in n) print k, n[k] }' | sort >"$T/want"
	gc-stats --by pc "$T/bfs.gcs" | sed -n '/^by pc$/,$p' >"$T/bypc"
	awk 'NR > 2 { print $1, $8, $3 }' "$T/bypc" | sort >"$T/got"
	diff -u "$T/want" "$T/got"
	grep -E "^ +$OPS_RE" "$T/bypc" >"$T/op"
	cat >"$T/want" <<-EOF
	   0x190     LDG.E.SYS    14768  14768       0        0  98304  $K1
	   0x270  STG.E.U8.SYS     7347      0    7347        0   7687  $K1
	    0xa0  LDG.E.U8.SYS     1024   1024       0        0  32768  $K2
	   0x190  STG.E.U8.SYS      549      0     549        0    549  $K2
	EOF
	diff -u "$T/want" "$T/op"
	expect_eq "$(grep -c '^0x190 ' "$T/got")" 2
	# by launch: one row per launch and PC, 16 launches
	expect_eq "$(gc-stats --by pc --by launch "$T/bfs.gcs" | sed -n '/^by pc and launch$/,$p' |
		awk 'NR > 2 { print $1 }' | sort -un | wc -l)" 16
}
