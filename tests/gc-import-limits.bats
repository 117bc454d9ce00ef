#!/usr/bin/env bats
# gc-import: what no trace may carry into the stream.  An access whose
# bytes reach 2^48 has no request line (gc-stream(5)): the parsers of
# tracers' lane addresses (Accel-Sim here; NVBit, PPT-GPU, Ocelot in their
# own tests) refuse it at its line, a bad line that --lenient skips; every
# other trace parser is held to it where the record is written, which
# names the record (kernel, block, warp, seq, lane) since the line is not
# known there.  The CSV restore is exact and carries it.

load helpers

@test "limits: an Accel-Sim lane address of 2^48 or more is a bad line" {
	local f=$T/k.traceg
	printf -- '-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n-accelsim tracer version = 4\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 1\n0010 00000003 1 R2 LDG.E 1 R2 4 0 0x7f0000000100 0x3ff0000000000000 \n\n#END_TB\n' >"$f"
	import_bad "$f" "$f:15: lane 1: address 0x3ff0000000000000 (4 bytes) reaches 2^48, where no GPU modelled has memory"
	expect_empty "$(cat "$T/o")"
	# --lenient skips the line: the kernel has no access and one bad line.
	gc-import -q --lenient --stats "$T/j" "$f" >"$T/o"
	expect_eq "$(jnum accesses) $(jnum bad_lines)" "0 1"
	# The last byte counts: 0xfffffffffffd + 4 bytes ends at 2^48; a
	# base+stride payload's lanes are checked as well (lane 1 is base + 4).
	sed 's/0x3ff0000000000000/0xfffffffffffd/' "$f" >"$T/k2.traceg"
	import_bad "$T/k2.traceg" "$T/k2.traceg:15: lane 1: address 0xfffffffffffd (4 bytes) reaches 2^48, where no GPU modelled has memory"
	sed 's/4 0 0x7f0000000100 0x3ff0000000000000 /4 1 0xfffffffffff9 4 /' "$f" >"$T/k4.traceg"
	import_bad "$T/k4.traceg" "$T/k4.traceg:15: lane 1: address 0xfffffffffffd (4 bytes) reaches 2^48, where no GPU modelled has memory"
	# One byte lower fits.
	sed 's/0x3ff0000000000000/0xfffffffffffc/' "$f" >"$T/k3.traceg"
	imp "$T/k3.traceg"
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f3,9 | tr '\n' ' ')" '0,0x7f0000000100 1,0xfffffffffffc '
}

@test "limits: the CSV restore carries such an access; gc-coalesce refuses it by its input record" {
	{
		printf '# gc-stats dump 1\n# kind accesses\n# version 1.0\n# record_size 32\n# required 0x0\n# optional 0x0\n'
		printf 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info\n'
		printf '1,,,,,,,kbegin,,,,,,,,"k",grid=1x1x1 block=32x1x1 regs=0 shmem=0\n'
		printf '1,0,0,0,0,0x10,0,load,global,0xfffffffffff8,8,,0,,0,,\n'
		printf '1,0,0,0,1,0x10,0,load,global,0xfffffffffffe,4,,0,,0,,\n'
		printf '1,,,,,,,kend,,,,,,,,,records=2\n,,,,,,,end,,,,,,,,,records=5 data=2\n'
	} >"$T/a.csv"
	# A restore is exact: the dump of the stream is the dump read.
	gc-import "$T/a.csv" >"$T/a.gcs"
	gc-stats --dump "$T/a.gcs" | grep -v '^# header' >"$T/b.csv"
	grep -v '^# header' "$T/a.csv" | cmp - "$T/b.csv"
	sh_status 1 "gc-coalesce '$T/a.gcs' >'$T/o.gcs'"
	expect_match "$(cat "$T/err")" "^gc-coalesce: $T/a.gcs: record 4 \(offset [0-9]+\): block 0 warp 0 seq 0 lane 1: address 0xfffffffffffe \(4 bytes\) reaches 2\^48 or beyond: no request line can hold it$"
}
