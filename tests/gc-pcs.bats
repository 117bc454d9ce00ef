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
# hit-rate miss% cumul% kernel" (the opcode column, always "-", left out).
rows() {
	awk '$2 ~ /^0x/ && $3 == "-" { print $2, $4, $5, $6, $7, $8, $9, $10 }' "$1"
}

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
		$8 != "end" { print $8, $9, $15 }' "$T/dump" | sort -u | tr '\n' ' ')" \
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
	[ "$(wc -l <"$T/got")" -gt 5 ]
}

@test "gc-stats --by pc: a kernel function's launches together, by name; --by launch apart" {
	two_kernels
	gc-stats --by pc "$T/two.gcs" | sed -n '/^by pc$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by pc
	     pc  records  loads  stores  atomics  bytes  kernel
	   0x10        3      3       0        0    384  kA
	   0x20        1      1       0        0    128  kA
	   0x10        3      0       3        0    384  kB
	EOF
	diff -u "$T/want" "$T/r"
	gc-stats --by pc --by launch "$T/two.gcs" | sed -n '/^by pc and launch$/,$p' >"$T/r"
	cat >"$T/want" <<-'EOF'
	by pc and launch
	   launch    pc  records  loads  stores  atomics  bytes  kernel
	        1  0x10        2      2       0        0    256  kA
	        1  0x20        1      1       0        0    128  kA
	        2  0x10        3      0       3        0    384  kB
	        3  0x10        1      1       0        0    128  kA
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
	expect_match "$(cat "$T/flat")" '"by":"pc","breakdown":\[\{"kernel":"kA","pc":"0x10","records":3,"loads":3,"stores":0,"atomics":0,"bytes":384\},'
	gc-stats --json --by launch --by pc "$T/two.gcs" | tr -d ' \n' >"$T/flat"
	expect_match "$(cat "$T/flat")" '"by":"pc\+launch","breakdown":\[\{"kernel":"kA","launch":1,"pc":"0x10","records":2,'
	sh_status 2 "gc-stats --by pc --by sm '$T/two.gcs'"
	expect_eq "$(head -1 "$T/err")" "gc-stats: --by pc and --by sm: one breakdown at a time (launch goes with pc)"
	[ ! -s "$T/out" ]
}

@test "gc-stats --by pc: BFS's rows equal a count over the dump by (kernel name, PC)" {
	bfs_front "$T/bfs.gcs"
	gc-stats --dump "$T/bfs.gcs" | awk -F, '/^#/ || $1 == "kernel" { next }
		$8 == "kbegin" { name = $16; gsub(/"/, "", name); next }
		$8 == "load" || $8 == "store" { n[$6 " " name]++ }
		END { for (k in n) print k, n[k] }' | sort >"$T/want"
	gc-stats --by pc "$T/bfs.gcs" | sed -n '/^by pc$/,$p' | awk 'NR > 2 { print $1, $7, $2 }' |
		sort >"$T/got"
	diff -u "$T/want" "$T/got"
	expect_eq "$(grep -c '^0x190 ' "$T/got")" 2
	# by launch: one row per launch and PC, 16 launches
	expect_eq "$(gc-stats --by pc --by launch "$T/bfs.gcs" | sed -n '/^by pc and launch$/,$p' |
		awk 'NR > 2 { print $1 }' | sort -un | wc -l)" 16
}
