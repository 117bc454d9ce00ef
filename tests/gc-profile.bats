#!/usr/bin/env bats
# gc-profile: G-MAP profiles (seed 002 §4) of accesses streams.  The
# expected lines are worked by hand from the kernels gc-gen writes, from
# streams written here row by row (acsv), and from the real traces of
# tests/fixtures/traces (see its README.md).

load helpers

VECADD="$FIX/traces/accelsim-v4-pascal-vectoradd/kernelslist.g"

# has FILE LINE: FILE holds LINE exactly once.
has() {
	expect_eq "$(grep -cxF -- "$2" "$1")" 1 "lines '$2' in $1"
}

# section FILE N: the lines of the N-th kernel section (1-based).
section() {
	awk -v n="$2" '/^kernel / { k++ } k == n { print } /^end kernel / && k == n { exit }' "$1"
}

# The P_R stream: one thread, one instruction at a, b, a, c, b.
reuse_stream() {
	acsv 1x1x1 1x1x1 <<-EOF
	0 0 0 0x10 0 load global 0x100 4
	0 0 0 0x10 1 load global 0x200 4
	0 0 0 0x10 2 load global 0x100 4
	0 0 0 0x10 3 load global 0x300 4
	0 0 0 0x10 4 load global 0x200 4
	EOF
}

# Two threads of one block: thread 0 runs instructions 0 1 2 3, thread 1
# runs 0 1 2; their similarity is 3 / 4 = 0.75.
diverge_stream() {
	acsv 1x1x1 2x1x1 <<-EOF
	0 0 0 0x10 0 load global 0x1000 4
	0 0 1 0x10 0 load global 0x1004 4
	0 0 0 0x20 1 load global 0x2000 4
	0 0 1 0x20 1 load global 0x2004 4
	0 0 0 0x30 2 load global 0x3000 4
	0 0 1 0x30 2 load global 0x3004 4
	0 0 0 0x40 3 load global 0x4000 4
	EOF
}

@test "gc-profile: the mandatory command-line cases" {
	common_cli_cases gc-profile --max-runs
	sh_status 2 "gc-profile --similarity 1.5 /dev/null"
	expect_match "$(cat "$T/err")" "similarity"
	sh_status 2 "gc-profile --reuse-depth 257 /dev/null"
	expect_match "$(cat "$T/err")" "reuse-depth"
}

@test "gc-profile: --help and the manual list the same options" {
	help_matches_man gc-profile
}

@test "gc-profile: vecadd: one profile, P_E 4 in tx and 1024 in bx, by hand" {
	# 2 blocks of 256 threads; thread i loads a[i], b[i] and stores c[i]
	# (4-byte elements, arrays of 2048 bytes one after the other) at seq
	# 0, 1, 2.  Within a block the next thread is 4 bytes on (255 strides
	# a block); block 1's thread 0 is 256 * 4 bytes from block 0's.
	gc-gen vecadd -n 512 | gc-profile >"$T/p"
	has "$T/p" "kernels 1"
	has "$T/p" "threads 512"
	has "$T/p" "accesses 1536"
	has "$T/p" "insts 3"
	has "$T/p" "inst 0 pc 0x10 op load space global flags 0 size 4 base 0x10000000 extent 0 2048 accesses 512"
	has "$T/p" "inst 1 pc 0x20 op load space global flags 0 size 4 base 0x10000800 extent 0 2048 accesses 512"
	has "$T/p" "inst 2 pc 0x30 op store space global flags 0 size 4 base 0x10001000 extent 0 2048 accesses 512"
	for i in 0 1 2; do
		expect_eq "$(grep -c "^pe $i " "$T/p")" 2 "pe lines of inst $i"
		has "$T/p" "pe $i bx total 1 none 0 align 1 exact 1024:1"
		has "$T/p" "pe $i tx total 510 none 0 align 1 exact 4:510"
		has "$T/p" "pa $i total 0 none 0 align 1"
	done
	has "$T/p" "profiles 1"
	has "$T/p" "profile 0 threads 512 len 3 0/0 1/1 2/1"
	has "$T/p" "pr 0 total 0 none 0 align 1"
	has "$T/p" "runs 1"
	has "$T/p" "run 0 0"
	expect_eq "$(tail -n 1 "$T/p")" "end"
}

@test "gc-profile: matmul, 2-D blocks: one stride per context, by hand" {
	# n = 64: 4 x 4 blocks of 16 x 16 threads, row = by*16+ty, col =
	# bx*16+tx; A[row][k], B[k][col], C[row][col], 4-byte elements.
	# Executors in thread order: by (a new row of blocks) 3 times, bx 12,
	# ty 15 per block (240), tx 15 per row (3840).  A: a row of blocks is
	# 16 rows of 256 bytes on, a thread row 256 bytes, tx 0, bx 0.  B: bx
	# 16 columns (64 bytes), tx 4, rows nothing.  C: both.  P_A: A moves 4
	# bytes a k, B 256; 63 strides of each of 4096 threads.
	gc-gen matmul -n 64 | gc-profile >"$T/p"
	has "$T/p" "threads 4096"
	has "$T/p" "pe 0 by total 3 none 0 align 1 exact 4096:3"
	has "$T/p" "pe 0 bx total 12 none 0 align 1 exact 0:12"
	has "$T/p" "pe 0 ty total 240 none 0 align 1 exact 256:240"
	has "$T/p" "pe 0 tx total 3840 none 0 align 1 exact 0:3840"
	has "$T/p" "pe 1 by total 3 none 0 align 1 exact 0:3"
	has "$T/p" "pe 1 bx total 12 none 0 align 1 exact 64:12"
	has "$T/p" "pe 1 ty total 240 none 0 align 1 exact 0:240"
	has "$T/p" "pe 1 tx total 3840 none 0 align 1 exact 4:3840"
	has "$T/p" "pe 2 by total 3 none 0 align 1 exact 4096:3"
	has "$T/p" "pe 2 bx total 12 none 0 align 1 exact 64:12"
	has "$T/p" "pe 2 ty total 240 none 0 align 1 exact 256:240"
	has "$T/p" "pe 2 tx total 3840 none 0 align 1 exact 4:3840"
	expect_eq "$(grep -c '^pe ' "$T/p")" 12 "pe lines"
	has "$T/p" "pa 0 total 258048 none 0 align 1 exact 4:258048"
	has "$T/p" "pa 1 total 258048 none 0 align 1 exact 256:258048"
	has "$T/p" "pa 2 total 0 none 0 align 1"
	has "$T/p" "profiles 1"
	expect_match "$(grep '^profile 0 ' "$T/p")" '^profile 0 threads 4096 len 129 '
}

@test "gc-profile: P_R and P_A of one thread at a, b, a, c, b, by hand" {
	# Non-first accesses: b (new: none), a (b since: 1), c (none), b (a
	# and c since: 2).  Strides: +0x100, -0x100, +0x200, -0x100.
	reuse_stream >"$T/s"
	gc-profile "$T/s" >"$T/p"
	has "$T/p" "inst 0 pc 0x10 op load space global flags 0 size 4 base 0x100 extent 0 516 accesses 5"
	expect_eq "$(grep -c '^pe ' "$T/p")" 0 "pe lines (one executor)"
	has "$T/p" "pa 0 total 4 none 0 align 1 exact -256:2,256:1,512:1"
	has "$T/p" "profile 0 threads 1 len 5 0/0 0/1*4"
	has "$T/p" "pr 0 total 4 none 2 align 1 exact 1:1,2:1"
	# two deep: b has fallen off when it comes back
	gc-profile --reuse-depth 2 "$T/s" >"$T/p2"
	has "$T/p2" "reuse_depth 2"
	has "$T/p2" "pr 0 total 4 none 3 align 1 exact 1:1"
}

@test "gc-profile: a first instance is P_E's, not P_R's, even on a reused address" {
	# X at a; Y's first instance at a too (distance 0, but P_E's); Y at b
	# (new: none); X at a again (b since: 1).
	acsv 1x1x1 1x1x1 >"$T/s" <<-EOF
	0 0 0 0x10 0 load global 0x100 4
	0 0 0 0x20 1 load global 0x100 4
	0 0 0 0x20 2 load global 0x200 4
	0 0 0 0x10 3 load global 0x100 4
	EOF
	gc-profile "$T/s" >"$T/p"
	has "$T/p" "inst 0 pc 0x10 op load space global flags 0 size 4 base 0x100 extent 0 4 accesses 2"
	has "$T/p" "inst 1 pc 0x20 op load space global flags 0 size 4 base 0x100 extent 0 260 accesses 2"
	has "$T/p" "pa 0 total 1 none 0 align 1 exact 0:1"
	has "$T/p" "pa 1 total 1 none 0 align 1 exact 256:1"
	has "$T/p" "profile 0 threads 1 len 4 0/0 1/1*2 0/1"
	has "$T/p" "pr 0 total 2 none 1 align 1 exact 1:1"
}

@test "gc-profile: P_R of a profile is its threads' together, by hand" {
	# thread 0: 0x100 0x200 0x100 (none, 1); thread 1: 0x104 0x204 0x204
	# (none, 0).  Strides +256 twice, -256 once, 0 once.
	acsv 1x1x1 2x1x1 >"$T/s" <<-EOF
	0 0 0 0x10 0 load global 0x100 4
	0 0 1 0x10 0 load global 0x104 4
	0 0 0 0x10 1 load global 0x200 4
	0 0 1 0x10 1 load global 0x204 4
	0 0 0 0x10 2 load global 0x100 4
	0 0 1 0x10 2 load global 0x204 4
	EOF
	gc-profile "$T/s" >"$T/p"
	has "$T/p" "pe 0 tx total 1 none 0 align 1 exact 4:1"
	has "$T/p" "pa 0 total 4 none 0 align 1 exact 256:2,-256:1,0:1"
	has "$T/p" "profile 0 threads 2 len 3 0/0 0/1*2"
	has "$T/p" "pr 0 total 4 none 2 align 1 exact 0:1,1:1"
}

@test "gc-profile: --similarity, --max-profiles and --max-runs on two profiles, by hand" {
	diverge_stream >"$T/s"
	# 0.75 < 0.9: two profiles of one thread each, thread 0's first
	gc-profile "$T/s" >"$T/p"
	has "$T/p" "profiles 2"
	has "$T/p" "profile 0 threads 1 len 4 0/0 1/1 2/1 3/1"
	has "$T/p" "profile 1 threads 1 len 3 0/0 1/1 2/1"
	has "$T/p" "runs 2"
	has "$T/p" "run 0 0"
	has "$T/p" "run 1 1"
	# at the threshold: one cluster, thread 0's profile for both
	gc-profile --similarity 0.75 "$T/s" >"$T/p"
	has "$T/p" "similarity 0.75"
	has "$T/p" "profiles 1"
	has "$T/p" "profile 0 threads 2 len 4 0/0 1/1 2/1 3/1"
	has "$T/p" "runs 1"
	gc-profile --similarity 0.76 "$T/s" >"$T/p"
	has "$T/p" "profiles 2"
	# one profile at most: the smaller joins the larger
	gc-profile --max-profiles 1 "$T/s" >"$T/p"
	has "$T/p" "profiles 1"
	has "$T/p" "profile 0 threads 2 len 4 0/0 1/1 2/1 3/1"
	# two runs: kept up to --max-runs 2, not at 1
	gc-profile --max-runs 2 "$T/s" >"$T/p"
	has "$T/p" "runs 2"
	gc-profile --max-runs 1 "$T/s" >"$T/p"
	has "$T/p" "runs 0"
	expect_eq "$(grep -c '^run ' "$T/p")" 0 "run lines"
}

@test "gc-profile: threads the stream never shows have the empty profile, by hand" {
	# 2 blocks of 64 threads; only lanes 0 and 1 of block 0's warp 1
	# (threads 32 and 33) access memory.  The other 126 threads, before,
	# between and after them, have the empty profile: 3 runs.
	acsv 2x1x1 64x1x1 >"$T/s" <<-EOF
	0 1 0 0x10 5 load global 0x1000 8
	0 1 1 0x10 5 load global 0x1008 8
	EOF
	gc-profile "$T/s" >"$T/p"
	has "$T/p" "threads 128"
	has "$T/p" "profiles 2"
	has "$T/p" "profile 0 threads 126 len 0"
	has "$T/p" "profile 1 threads 2 len 1 0/5"
	has "$T/p" "inst 0 pc 0x10 op load space global flags 0 size 8 base 0x1000 extent 0 16 accesses 2"
	has "$T/p" "pe 0 tx total 1 none 0 align 1 exact 8:1"
	has "$T/p" "runs 3"
	has "$T/p" "run 0 0"
	has "$T/p" "run 32 1"
	has "$T/p" "run 34 0"
}

@test "gc-profile: --max-runs 0 keeps no runs" {
	gc-gen vecadd -n 512 | gc-profile --max-runs 0 >"$T/p"
	has "$T/p" "max_runs 0"
	has "$T/p" "runs 0"
	expect_eq "$(grep -c '^run ' "$T/p")" 0 "run lines"
}

@test "gc-profile: the real vectoradd trace: 100 threads of 1024 work, 2 profiles, 2 runs" {
	gc-import "$VECADD" | gc-profile >"$T/p"
	has "$T/p" "threads 1024"
	has "$T/p" "accesses 300"
	has "$T/p" "profiles 2"
	has "$T/p" "profile 0 threads 924 len 0"
	expect_match "$(grep '^profile 1 ' "$T/p")" '^profile 1 threads 100 len 3 '
	has "$T/p" "runs 2"
	has "$T/p" "run 0 1"
	has "$T/p" "run 100 0"
	for i in 0 1 2; do
		has "$T/p" "pe $i tx total 99 none 0 align 1 exact 4:99"
	done
}

@test "gc-profile: BFS: divergent kernels have several profiles whose threads add up" {
	gc-import "$BFS" >"$T/s"
	gc-profile "$T/s" >"$T/p"
	has "$T/p" "kernels 16"
	# one awk over the sections (as section cuts them: from a "kernel"
	# line to its "end kernel"): per kernel its "threads" value, the sum
	# of its profiles' threads, its "profile" lines and its "profiles"
	# value; checked kernel by kernel below
	awk '/^kernel / { k++; inside = 1 }
		inside && /^threads / { t[k] = t[k] substr($0, 9) }
		inside && /^profile / { s[k] += $4; n[k]++ }
		inside && /^profiles / { np[k] = np[k] substr($0, 10) }
		/^end kernel / { inside = 0 }
		END { OFS = ";"; for (i = 1; i <= 16; i++) print i, t[i], s[i], n[i] + 0, np[i] }' "$T/p" >"$T/ks"
	local k t sum n np
	while IFS=";" read -r k t sum n np; do
		expect_eq "$t" 4096 "kernel $k threads"
		expect_eq "$sum" "$t" "kernel $k profile threads"
		expect_eq "$n" "$np" "kernel $k profiles"
	done <"$T/ks"
	expect_eq "$(wc -l <"$T/ks")" 16 "kernels checked"
	expect_eq "$(awk '$1 == "profiles" && $2 > 1' "$T/p" | wc -l | awk '$1 >= 8 { print "yes" }')" yes \
		"kernels with more than one profile"
	# no more than --max-profiles
	expect_eq "$(awk '$1 == "profiles" && $2 > 64' "$T/p" | wc -l)" 0 "kernels over 64 profiles"
	gc-profile --max-profiles 4 "$T/s" >"$T/p4"
	expect_eq "$(awk '$1 == "profiles" && $2 > 4' "$T/p4" | wc -l)" 0 "kernels over 4 profiles"
	expect_eq "$(awk '$1 == "profiles" && $2 == 4' "$T/p4" | wc -l | awk '$1 >= 1 { print "yes" }')" yes \
		"a kernel at 4 profiles"
}

@test "gc-profile: deterministic: two runs are byte-identical" {
	gc-import "$BFS" >"$T/s"
	gc-profile "$T/s" >"$T/a"
	gc-profile "$T/s" >"$T/b"
	expect_same "$T/a" "$T/b"
}

@test "gc-profile: --obfuscate moves the bases and keeps the strides" {
	gc-gen vecadd -n 512 >"$T/s"
	gc-profile "$T/s" >"$T/a"
	gc-profile --obfuscate "$T/s" >"$T/b"
	gc-profile --obfuscate=7 "$T/s" >"$T/c"
	has "$T/b" "obfuscated 1"
	expect_differ <(grep '^inst ' "$T/a") <(grep '^inst ' "$T/b") "bases"
	expect_differ <(grep '^inst ' "$T/b") <(grep '^inst ' "$T/c") "bases of two seeds"
	# everything but the bases and the flag is the same
	strip() { sed 's/ base 0x[0-9a-f]*//; /^obfuscated /d' "$1"; }
	expect_same <(strip "$T/a") <(strip "$T/b") "the rest"
	expect_same <(gc-profile --obfuscate "$T/s") "$T/b" "the same seed twice"
}

@test "gc-profile: a truncated stream and a requests stream are errors, nothing written" {
	gc-gen vecadd -n 512 >"$T/s"
	head -c $(($(wc -c <"$T/s") - 40)) "$T/s" >"$T/t"
	sh_status 1 "gc-profile '$T/t'"
	[ ! -s "$T/out" ]
	expect_match "$(cat "$T/err")" "^gc-profile: "
	sh_status 1 "gc-profile -o '$T/o' '$T/t'"
	[ ! -e "$T/o" ]
	gc-coalesce "$T/s" >"$T/r"
	sh_status 1 "gc-profile '$T/r'"
	[ ! -s "$T/out" ]
	expect_match "$(cat "$T/err")" "gc-profile reads accesses; this stream holds requests"
}

@test "gc-profile: records outside the grid, the block or the warp are errors naming the field" {
	echo "0 0 40 0x10 0 load global 0x100 4" | acsv 1x1x1 64x1x1 >"$T/a"
	sh_status 1 "gc-profile '$T/a'"
	[ ! -s "$T/out" ]
	expect_match "$(cat "$T/err")" "record [0-9]+: lane 40 not below the warp size 32$"
	echo "9 0 0 0x10 0 load global 0x100 4" | acsv 8x1x1 32x1x1 >"$T/b"
	sh_status 1 "gc-profile '$T/b'"
	expect_match "$(cat "$T/err")" "block 9 outside the grid of 8 blocks$"
	echo "0 0 3 0x10 0 load global 0x100 4" | acsv 1x1x1 2x1x1 >"$T/c"
	sh_status 1 "gc-profile '$T/c'"
	expect_match "$(cat "$T/err")" "lane 3 of warp 0: thread 3 outside the block of 2 threads$"
}

@test "gc-profile: -o, --stats and -v: the sizes of the profile and of the stream" {
	gc-gen vecadd -n 512 >"$T/s"
	gc-profile -v -o "$T/p" --stats "$T/j" "$T/s" 2>"$T/e"
	pb=$(wc -c <"$T/p")
	sb=$(wc -c <"$T/s")
	expect_eq "$(jnum kernel_count)" 1
	expect_eq "$(jnum threads)" 512
	expect_eq "$(jnum accesses)" 1536
	expect_eq "$(jnum profile_bytes)" "$pb"
	expect_eq "$(jnum stream_bytes)" "$sb"
	expect_match "$(cat "$T/e")" "kernel 1 vecadd: 512 threads, 1536 accesses, 3 insts, 1 profiles \(Q 1\), 1 runs"
	expect_match "$(cat "$T/e")" "profile [0-9,]+ bytes for a [0-9,]+-byte stream \([0-9.]+%\)$"
	expect_eq "$(sed -n 's/.*profile \([0-9,]*\) bytes.*/\1/p' "$T/e" | tr -d ,)" "$pb"
}

@test "gc-profile: P_E built in thread order equals P_E from the threads sorted at the end" {
	# P_E is built as the stream goes while an instruction's threads come
	# in thread order (gc-gen's stream), else from all of them sorted at
	# the kernel's end (the scheduled stream, first instruction seen out of
	# thread order): the same profile, byte for byte, the 2-D contexts of
	# a 3x3 grid included.
	gc-gen stencil2d -n 48 >"$T/s"
	gc-sched --policy gto "$T/s" >"$T/g"
	back=$(gc-stats --dump "$T/g" | awk -F, '$1 ~ /^[0-9]/ && $8 != "kbegin" && $8 != "kend" &&
		$5 == 0 && $6 == "0x10" { t = $3 * 1000 + $4; if (t < last) n++; last = t }
		END { print n + 0 }')
	[ "$back" -gt 0 ]
	gc-profile "$T/s" >"$T/a"
	gc-profile "$T/g" >"$T/b"
	expect_same "$T/a" "$T/b" "trace order and scheduled"
	# and from the retired warps' packed state: all but P_R
	gc-profile --live-warps 3 --stats "$T/j" "$T/g" >"$T/c"
	expect_same <(grep -v '^pr ' "$T/a") <(grep -v '^pr ' "$T/c") "scheduled, 3 live warps"
	[ "$(jnum resurrected_warps)" -gt 100 ]
}

@test "gc-profile: a retired thread of ten instructions comes back whole, by hand" {
	# Two one-thread blocks, interleaved record by record, each running ten
	# instructions (pc 0x10 ... 0xa0; the first eight pinned in its warp's
	# live entry, the last two in the map) at block * 0x10000 + i * 0x100,
	# then twice again, 8 bytes on each time.  At one live warp every
	# record but the first two finds its warp retired (58 come back): the
	# same profile, P_A 8 four times per instruction and P_E 0x10000 in bx.
	awk 'BEGIN { for (p = 0; p < 3; p++) for (i = 0; i < 10; i++) for (b = 0; b < 2; b++)
		printf "%d 0 0 0x%x %d load global 0x%x 4\n", b, 16 * (i + 1), 10 * p + i,
			b * 65536 + i * 256 + p * 8 }' | acsv 2x1x1 1x1x1 >"$T/s"
	gc-profile "$T/s" >"$T/a"
	gc-profile --live-warps 1 --stats "$T/j" "$T/s" >"$T/b"
	expect_same "$T/a" "$T/b" "one live warp"
	expect_eq "$(jnum resurrected_warps)" 58
	for i in 0 7 8 9; do
		has "$T/b" "pa $i total 4 none 0 align 1 exact 8:4"
		has "$T/b" "pe $i bx total 1 none 0 align 1 exact 65536:1"
	done
	has "$T/b" "pr 0 total 40 none 40 align 1"
}

@test "gc-profile: --live-warps: warps retired and seen again keep P_E and P_A, lose reuses" {
	# Two one-thread blocks interleaved, each at 0x100 (0x900) twice: a
	# reuse at distance 0 each.  With one live warp each block's second
	# access finds its warp retired: its stack restarted, no reuse seen.
	acsv 2x1x1 1x1x1 >"$T/s" <<-EOF2
	0 0 0 0x10 0 load global 0x100 4
	1 0 0 0x10 0 load global 0x900 4
	0 0 0 0x10 1 load global 0x100 4
	1 0 0 0x10 1 load global 0x900 4
	EOF2
	gc-profile --stats "$T/j0" "$T/s" >"$T/a"
	gc-profile -v --live-warps 1 --stats "$T/j1" "$T/s" >"$T/b" 2>"$T/e"
	has "$T/a" "pr 0 total 2 none 0 align 1 exact 0:2"
	has "$T/b" "pr 0 total 2 none 2 align 1"
	for f in a b; do
		has "$T/$f" "pa 0 total 2 none 0 align 1 exact 0:2"
		has "$T/$f" "pe 0 bx total 1 none 0 align 1 exact 2048:1"
	done
	expect_same <(grep -v '^pr ' "$T/a") <(grep -v '^pr ' "$T/b") "all but P_R"
	expect_eq "$(jnum resurrected_warps "$T/j0")" 0
	expect_eq "$(jnum resurrected_warps "$T/j1")" 2
	expect_match "$(cat "$T/e")" "2 warps came back after their retirement \(more than 1 live at once\)"
	# a scheduled (interleaved) matmul: P_E and P_A exact at one live warp
	gc-gen matmul -n 64 | gc-sched >"$T/m"
	gc-profile "$T/m" >"$T/ma"
	gc-profile --live-warps 1 --stats "$T/j2" "$T/m" >"$T/mb"
	expect_same <(grep -v '^pr ' "$T/ma") <(grep -v '^pr ' "$T/mb") "matmul but P_R"
	[ "$(jnum resurrected_warps "$T/j2")" -gt 1000 ]
	sh_status 2 "gc-profile --live-warps 0 /dev/null"
	expect_match "$(cat "$T/err")" "live-warps"
}

@test "gc-profile: past a chunk of the retired threads' places: 540016 threads, by hand" {
	# The retired threads' places in the tree grow in 2 MiB chunks of
	# 524288 (16384 warps); their packed pins likewise, crossed by the
	# scheduled matmul and stencil2d above.  gc-gen copy -n 540016: 2110
	# blocks of 256 threads, each active thread loading and storing at 4
	# bytes a thread; 16876 warps, the last half idle (its place in the
	# second chunk).  Default and one live warp (each retired as the next
	# comes): the same profile, threads and runs as counted by hand.
	gc-gen copy -n 540016 >"$T/s"
	gc-profile "$T/s" >"$T/a"
	gc-profile --live-warps 1 "$T/s" >"$T/b"
	expect_same "$T/a" "$T/b" "4096 live warps and one"
	has "$T/b" "threads 540160"
	has "$T/b" "profile 0 threads 540016 len 2 0/0 1/1"
	has "$T/b" "profile 1 threads 144 len 0"
	has "$T/b" "runs 2"
	has "$T/b" "run 540016 1"
	for i in 0 1; do
		has "$T/b" "pe $i bx total 2109 none 0 align 1 exact 1024:2109"
		has "$T/b" "pe $i tx total 537906 none 0 align 1 exact 4:537906"
	done
}
