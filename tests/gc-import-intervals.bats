#!/usr/bin/env bats
# gc-import --intervals: the compute field of Accel-Sim traces (insts,
# cycles, waits per memory warp instruction; gc-stream(5)), the opcode
# classes, the GPU the latencies come from, and the formats that cannot
# have it.
#
# Fixtures: tests/fixtures/accelsim/intervals.traceg (one block of two
# warps, worked out by hand below), intervals.trace (the same lines as a
# raw trace, the warps interleaved), tests/fixtures/gpus/intervals.gpu
# (a latency and an initiation interval per class, all different).

load helpers

A="$FIX/accelsim"
G="$FIX/gpus/intervals.gpu"
TR="$FIX/traces"
BFS="$TR/accelsim-v3-volta-bfs-rodinia"
VA="$TR/accelsim-v4-pascal-vectoradd"

# The cycles of intervals.traceg with intervals.gpu: int 4,2 (latency,
# initiation), sp 5,2, dp 8,4, sfu 20,8, branch 6,3.  An instruction
# issues at max(previous issue + 1, its unit's previous issue + its
# initiation, the ready time of each register it reads); its results are
# ready at issue + latency, a load's at its issue.  insts and waits count
# what came before the memory instruction.
#
# warp 0                           issue  why                         ready
#   S2R R0                             0  first                       R0 4
#   S2R R1                             2  int initiation 0+2          R1 6
#   IMAD R2 <- R0 R1                   6  R1 ready                    R2 10
#   IMAD.SHL R3 <- R2                 10  R2                          R3 14
#   IADD3 R4 <- R3 RZ                 14  R3 (RZ: none)               R4 18
#   LEA.HI.X R5 <- R3                 16  int initiation 14+2         R5 20
#   LDG R6 <- R4                      18  R4; insts=6 cycles=18 waits=0, R6 18
#   FFMA R7 <- R1 R1 RZ               19  next cycle (sp unit free)   R7 24
#   MUFU.RCP R8 <- R7                 24  R7                          R8 44
#   IADD3 R9 <- R6 R8                 44  R8; first reader of R6: a wait  R9 48
#   IADD3 R10 <- R6 R9                48  R9 (R6 read before: no wait)    R10 52
#   STG <- R4 R10                     52  R10; insts=10 cycles=52 waits=1
#   ISETP P0 <- R9 RZ                 53  next cycle                  P0 57
#   BRA <- P0                         57  P0 (predicates count)
#   STG <- R4 R9                      58  next; insts=12 cycles=58 waits=1
#   EXIT                              60  branch initiation 57+3
# warp 1
#   S2R R0                             0                              R0 4
#   LDG.64 R2 <- R0                    4  R0; insts=1 cycles=4 waits=0, R2 4
#   LDG R4 <- R2                       5  next; insts=1 cycles=5 waits=0 (it is
#                                         the first reader of R2: a wait after it)
#   MUFU.EX2 R5 <- R0                  6                              R5 26
#   MUFU.LG2 R6 <- R0                 14  sfu initiation 6+8          R6 34
#   MOV R4 <- R0                      15  overwrites the unread load R4  R4 19
#   DFMA R8 <- R5 R6 R4               34  R6                          R8 42
#   ISETP P1 <- R4 RZ                 35                              P1 39
#   STG.64 <- R0 R8                   42  R8; insts=6 cycles=42 waits=1
#   BRA <- P1 PT                      43  (mask 0: it still issues)
#   EXIT                              46  branch initiation 43+3
FIELDS="b0 w0 pc=0x60 insts=6 cycles=18 waits=0
b0 w0 pc=0xb0 insts=10 cycles=52 waits=1
b0 w0 pc=0xe0 insts=12 cycles=58 waits=1
b0 w1 pc=0x10 insts=1 cycles=4 waits=0
b0 w1 pc=0x20 insts=1 cycles=5 waits=0
b0 w1 pc=0x80 insts=6 cycles=42 waits=1"

@test "intervals: the hand-worked warps of intervals.traceg" {
	sh_status 0 "gc-import --intervals --gpu '$G' '$A/intervals.traceg' > '$T/s'"
	expect_eq "$(compute_fields "$T/s")" "$FIELDS"
	# Every record of an instruction carries its value: 32 lanes each.
	expect_eq "$(gc-stats --dump "$T/s" | grep -c ' cycles=')" 192
	# The kernel's counts: 13 + 8 non-memory and 3 + 3 memory warp
	# instructions; 25 lines of 32 lanes, one of none, one of 16.
	expect_match "$(gc-stats --dump "$T/s" | grep kbegin)" \
		"insts=21 mem_insts=6 .*thread_insts=816"
}

@test "intervals: the header: flag, 48-byte records, the GPU and its latencies" {
	sh_status 0 "gc-import --intervals --gpu '$G' '$A/intervals.traceg' > '$T/s'"
	gc-stats --dump "$T/s" | grep '^#' >"$T/h"
	expect_match "$(cat "$T/h")" "# record_size 48"
	expect_match "$(cat "$T/h")" "# optional 0x8"
	expect_match "$(cat "$T/h")" "# header intervals=accelsim"
	expect_match "$(cat "$T/h")" "# header intervals.gpu=$G"
	expect_eq "$(grep -o 'intervals\.op\.[a-z]*=.*' "$T/h" | tr '\n' ' ')" \
		"intervals.op.int=4,2 intervals.op.sp=5,2 intervals.op.dp=8,4 intervals.op.sfu=20,8 intervals.op.tensor=16,16 intervals.op.branch=6,3 "
	# Without --intervals: 32-byte records and no flag.
	sh_status 0 "gc-import '$A/intervals.traceg' > '$T/p'"
	expect_match "$(gc-stats --dump "$T/p" | grep '^# record_size')" "32"
	expect_match "$(gc-stats --dump "$T/p" | grep '^# optional')" "0x0"
}

# --op-latency int=7 (initiation still intervals.gpu's 2): every int
# result comes 3 cycles later, and the memory instructions after them
# issue later.
# warp 0                           issue  why                         ready
#   S2R R0                             0  first                       R0 7
#   S2R R1                             2  int initiation 0+2          R1 9
#   IMAD R2 <- R0 R1                   9  R1                          R2 16
#   IMAD.SHL R3 <- R2                 16  R2                          R3 23
#   IADD3 R4 <- R3 RZ                 23  R3                          R4 30
#   LEA.HI.X R5 <- R3                 25  int initiation 23+2         R5 32
#   LDG R6 <- R4                      30  R4; insts=6 cycles=30 waits=0, R6 30
#   FFMA R7 <- R1 R1 RZ               31  next cycle                  R7 36
#   MUFU.RCP R8 <- R7                 36  R7                          R8 56
#   IADD3 R9 <- R6 R8                 56  R8; a wait                  R9 63
#   IADD3 R10 <- R6 R9                63  R9                          R10 70
#   STG <- R4 R10                     70  R10; insts=10 cycles=70 waits=1
#   ISETP P0 <- R9 RZ                 71  next cycle                  P0 78
#   BRA <- P0                         78  P0
#   STG <- R4 R9                      79  next; insts=12 cycles=79 waits=1
# warp 1
#   S2R R0                             0                              R0 7
#   LDG.64 R2 <- R0                    7  R0; insts=1 cycles=7 waits=0
#   LDG R4 <- R2                       8  next; insts=1 cycles=8 waits=0
#   MUFU.EX2 R5 <- R0                  9                              R5 29
#   MUFU.LG2 R6 <- R0                 17  sfu initiation 9+8          R6 37
#   MOV R4 <- R0                      18                              R4 25
#   DFMA R8 <- R5 R6 R4               37  R6                          R8 45
#   ISETP P1 <- R4 RZ                 38
#   STG.64 <- R0 R8                   45  R8; insts=6 cycles=45 waits=1
INT7="b0 w0 pc=0x60 insts=6 cycles=30 waits=0
b0 w0 pc=0xb0 insts=10 cycles=70 waits=1
b0 w0 pc=0xe0 insts=12 cycles=79 waits=1
b0 w1 pc=0x10 insts=1 cycles=7 waits=0
b0 w1 pc=0x20 insts=1 cycles=8 waits=0
b0 w1 pc=0x80 insts=6 cycles=45 waits=1"

@test "intervals: --op-latency int=7 over --gpu: the hand-worked cycles and the header" {
	# After --gpu whatever the order on the command line.
	for args in "--gpu '$G' --op-latency int=7" "--op-latency int=7 --gpu '$G'" \
		"--op-latency int=3,5 --gpu '$G' --op-latency int=7"; do
		sh_status 0 "gc-import --intervals $args '$A/intervals.traceg' > '$T/s'"
		expect_eq "$(compute_fields "$T/s")" "$INT7" "fields with $args"
		expect_eq "$(hkey "$T/s" intervals.op.int)" "7,2" "header with $args"
	done
	# The other classes keep the GPU's.
	expect_eq "$(gc-stats --dump "$T/s" | grep -o 'intervals\.op\.[a-z]*=.*' | tr '\n' ' ')" \
		"intervals.op.int=7,2 intervals.op.sp=5,2 intervals.op.dp=8,4 intervals.op.sfu=20,8 intervals.op.tensor=16,16 intervals.op.branch=6,3 "
	# The GPU chosen by binary version (volta-v100, int 2,2) is overridden too.
	sh_status 0 "gc-import --intervals --op-latency int=9 '$A/intervals.traceg' > '$T/v'"
	expect_eq "$(hkey "$T/v" intervals.gpu)" volta-v100
	expect_eq "$(hkey "$T/v" intervals.op.int)" "9,2"
}

@test "intervals: --op-latency sfu=10,12: the initiation interval too" {
	# Warp 1: MUFU.EX2 at 6 (R5 16), MUFU.LG2 waits for the sfu unit until
	# 6+12 = 18 (R6 28, where 8 would give 14 and R6 24), MOV R4 19 (R4
	# 23), DFMA at 28 (R6; R8 36), so STG.64 issues at 36.  Warp 0:
	# MUFU.RCP at 24 (R8 34), IADD3 R9 34 (38), IADD3 R10 38 (42), the STG
	# at 42, ISETP 43 (P0 47), BRA 47, the last STG at 48.
	sh_status 0 "gc-import --intervals --gpu '$G' --op-latency sfu=10,12 '$A/intervals.traceg' > '$T/s'"
	expect_eq "$(compute_fields "$T/s")" "b0 w0 pc=0x60 insts=6 cycles=18 waits=0
b0 w0 pc=0xb0 insts=10 cycles=42 waits=1
b0 w0 pc=0xe0 insts=12 cycles=48 waits=1
b0 w1 pc=0x10 insts=1 cycles=4 waits=0
b0 w1 pc=0x20 insts=1 cycles=5 waits=0
b0 w1 pc=0x80 insts=6 cycles=36 waits=1"
	expect_eq "$(hkey "$T/s" intervals.op.sfu)" "10,12"
	# The gpu.* keys stay the preset's: only the intervals used the override.
	sh_status 0 "gc-import --intervals --gpu volta-v100 --op-latency sfu=10,12 '$A/intervals.traceg' > '$T/s'"
	expect_eq "$(hkey "$T/s" gpu.op.sfu.latency) $(hkey "$T/s" gpu.op.sfu.initiation)" "20 8"
	expect_eq "$(hkey "$T/s" intervals.op.sfu)" "10,12"
}

@test "intervals: --op-latency usage errors: one line naming the bad part, exit 2, no output" {
	local key="for key 'op.int.latency' (expected an integer from 1 to 100000)"
	chk() {
		sh_status 2 "gc-import $1 '$A/intervals.traceg' > '$T/o'"
		expect_eq "$(head -1 "$T/err")" "gc-import: --op-latency: $2" "$1"
		expect_eq "$(grep -vc '^Try ' "$T/err")" 1 "message lines of $1"
		[ ! -s "$T/o" ]
	}
	chk "--intervals --op-latency foo=3" \
		"unknown class 'foo' (expected int, sp, dp, sfu, tensor or branch)"
	chk "--intervals --op-latency =3" \
		"unknown class '' (expected int, sp, dp, sfu, tensor or branch)"
	chk "--intervals --op-latency int" "expected CLASS=LAT[,INIT], not 'int'"
	chk "--intervals --op-latency int=0" "bad value '0' $key"
	chk "--intervals --op-latency int=x4" "bad value 'x4' $key"
	chk "--intervals --op-latency int=" "bad value '' $key"
	chk "--intervals --op-latency int=100001" "bad value '100001' $key"
	chk "--intervals --op-latency int=4,0" \
		"bad value '0' for key 'op.int.initiation' (expected an integer from 1 to 100000)"
	chk "--intervals --op-latency tensor=4,2,1" \
		"bad value '2,1' for key 'op.tensor.initiation' (expected an integer from 1 to 100000)"
	# A good one after a bad one is still an error.
	chk "--intervals --op-latency dp=0 --op-latency dp=4" \
		"bad value '0' for key 'op.dp.latency' (expected an integer from 1 to 100000)"
	chk "--op-latency int=4" "only with --intervals"
	chk "--gpu '$G' --op-latency int=4" "only with --intervals"
}

@test "intervals: a raw .trace gives the fields of the same warps as a .traceg" {
	sh_status 0 "gc-import --intervals --gpu '$G' '$A/intervals.trace' > '$T/r'"
	# The raw file interleaves the warps (warp 1 first): same fields.
	expect_eq "$(compute_fields "$T/r" | sort)" "$(echo "$FIELDS" | sort)"
}

@test "intervals: the GPU follows the binary version unless --gpu names one" {
	sh_status 0 "gc-import --intervals '$A/intervals.traceg' > '$T/s'"
	expect_match "$(gc-stats --dump "$T/s" | grep '^# header intervals.gpu')" "=volta-v100$"
	sed 's/^-binary version = 70$/-binary version = 75/' "$A/intervals.traceg" >"$T/t.traceg"
	sh_status 0 "gc-import --intervals '$T/t.traceg' > '$T/s'"
	expect_match "$(gc-stats --dump "$T/s" | grep '^# header intervals.gpu')" "=turing-rtx2060$"
	sed 's/^-binary version = 70$/-binary version = 61/' "$A/intervals.traceg" >"$T/p.traceg"
	sh_status 0 "gc-import --intervals '$T/p.traceg' > '$T/s'"
	expect_match "$(gc-stats --dump "$T/s" | grep '^# header intervals.gpu')" "=pascal-gtx1080$"
	# A version without a preset, or none: name the GPU.
	sed 's/^-binary version = 70$/-binary version = 52/' "$A/intervals.traceg" >"$T/m.traceg"
	sh_status 2 "gc-import --intervals '$T/m.traceg' > '$T/o'"
	expect_eq "$(head -1 "$T/err")" \
		"gc-import: $T/m.traceg: --intervals: binary version 52 has no preset; name the GPU with --gpu"
	[ ! -s "$T/o" ]
	sed '/^-binary version/d' "$A/intervals.traceg" >"$T/n.traceg"
	sh_status 2 "gc-import --intervals '$T/n.traceg' > '$T/o'"
	expect_eq "$(head -1 "$T/err")" \
		"gc-import: $T/n.traceg: --intervals: the kernel has no '-binary version' line to choose the GPU by; name one with --gpu"
	[ ! -s "$T/o" ]
	sh_status 0 "gc-import --intervals --gpu '$G' '$T/n.traceg' > '$T/o'"
}

@test "intervals: formats without non-memory instructions are a usage error" {
	local f
	for f in "$FIX/nvbit/v155.txt" "$FIX/csv/"*.csv; do
		[ -f "$f" ] || continue
		sh_status 2 "gc-import --intervals '$f' > '$T/o'"
		expect_match "$(head -1 "$T/err")" \
			"^gc-import: $f: --intervals: the [a-z-]+ format carries no non-memory instructions"
		[ ! -s "$T/o" ]
	done
	# Each format by name, whatever the file holds.
	for f in nvbit ppt-gpu ocelot csv; do
		sh_status 2 "gc-import --intervals -f $f '$A/intervals.traceg' > '$T/o'"
		expect_eq "$(head -1 "$T/err")" \
			"gc-import: $A/intervals.traceg: --intervals: the $f format carries no non-memory instructions (only Accel-Sim traces do)"
		[ ! -s "$T/o" ]
	done
}

@test "intervals: an opcode the table lacks is timed as int, with one warning" {
	# FFMA (sp, 5,2) becomes FOO (int, 4,2) twice over: in warp 0 it now
	# waits for the int unit (LEA.HI.X at 16, free at 18: still 19), and
	# its R7 is ready at 23, so MUFU.RCP issues at 23, R8 at 43, IADD3 R9
	# at 43 (ready 47), IADD3 R10 at 47 (51), the STG at 51, ISETP at 52
	# (P0 56), BRA at 56 and the last STG at 57.
	sed 's/ FFMA / FOO /; s/ MOV 1 R0 / FOO.X 1 R0 /' "$A/intervals.traceg" >"$T/u.traceg"
	sh_status 0 "gc-import --intervals --stats '$T/j' --gpu '$G' '$T/u.traceg' > '$T/s'"
	expect_eq "$(cat "$T/err")" \
		"gc-import: --intervals: opcode FOO is not in the class table; timed as int"
	expect_eq "$(compute_fields "$T/s" | head -3)" "b0 w0 pc=0x60 insts=6 cycles=18 waits=0
b0 w0 pc=0xb0 insts=10 cycles=51 waits=1
b0 w0 pc=0xe0 insts=12 cycles=57 waits=1"
	expect_eq "$(jnum unknown_opcode_instructions)" 2
	sh_status 0 "gc-import -q --intervals --gpu '$G' '$T/u.traceg' > '$T/s2'"
	[ ! -s "$T/err" ]
	expect_same <(gc-stats --dump "$T/s" | grep -v '^# header provenance=') \
		<(gc-stats --dump "$T/s2" | grep -v '^# header provenance=')
}

@test "intervals: BFS through its kernelslist: a field on every record, deterministic" {
	sh_status 0 "gc-import --intervals '$BFS/kernelslist.g' > '$T/a'"
	sh_status 0 "gc-import --intervals '$BFS/kernelslist.g' > '$T/b'"
	cmp "$T/a" "$T/b"
	# The CSV dump restores it byte for byte, fields included.
	sh_status 0 "gc-stats --dump '$T/a' | gc-import > '$T/c'"
	cmp "$T/a" "$T/c"
	gc-stats --dump "$T/a" | awk -F, '$8 ~ /^(load|store|atomic)$/' >"$T/d"
	expect_eq "$(wc -l <"$T/d")" 181816
	expect_eq "$(grep -c ',insts=[0-9]* cycles=[0-9]* waits=[0-9]*$' "$T/d")" 181816
	# Without --intervals the same records, 16 bytes shorter.
	sh_status 0 "gc-import '$BFS/kernelslist.g' > '$T/p'"
	expect_eq "$(gc-stats --dump "$T/p" | awk -F, '$8 ~ /^(load|store|atomic)$/' |
		cut -d, -f1-16 | md5sum)" "$(cut -d, -f1-16 "$T/d" | md5sum)"
}
