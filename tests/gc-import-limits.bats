#!/usr/bin/env bats
# gc-import: what no format may carry into the stream.  An access whose
# bytes reach 2^48 has no request line (gc-stream(5)): the parsers of
# tracers' lane addresses (NVBit, PPT-GPU, Ocelot, CSV) refuse it at its
# line (their own tests); every other parser is held to it where the
# record is written, which names the record (kernel, block, warp, seq,
# lane) since the line is not known there.

load helpers

@test "limits: an Accel-Sim lane address of 2^48 or more is refused with its record" {
	local f=$T/k.traceg
	printf -- '-kernel name = k\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n-accelsim tracer version = 4\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 1\n0010 00000003 1 R2 LDG.E 1 R2 4 0 0x7f0000000100 0x3ff0000000000000 \n\n#END_TB\n' >"$f"
	import_bad "$f" "kernel 1 block 0 warp 0 seq 0 lane 1: address 0x3ff0000000000000 (4 bytes) reaches 2^48, where no GPU modelled has memory"
	expect_empty "$(cat "$T/o")"
	# The last byte counts: 0xfffffffffffd + 4 bytes ends at 2^48.
	sed 's/0x3ff0000000000000/0xfffffffffffd/' "$f" >"$T/k2.traceg"
	import_bad "$T/k2.traceg" "kernel 1 block 0 warp 0 seq 0 lane 1: address 0xfffffffffffd (4 bytes) reaches 2^48, where no GPU modelled has memory"
	# One byte lower fits.
	sed 's/0x3ff0000000000000/0xfffffffffffc/' "$f" >"$T/k3.traceg"
	imp "$T/k3.traceg"
	expect_eq "$(grep '^[0-9]' "$T/d" | cut -d, -f3,9 | tr '\n' ' ')" '0,0x7f0000000100 1,0xfffffffffffc '
}

@test "limits: a CSV access reaching 2^48 is refused at its line and column" {
	{
		printf '# gc-stats dump 1\n# kind accesses\n# version 1.0\n# record_size 32\n# required 0x0\n# optional 0x0\n'
		printf 'kernel,sm,block,warp,lane,pc,seq,op,space,addr,size,mask,time,outcome,flags,name,info\n'
		printf '1,,,,,,,kbegin,,,,,,,,"k",grid=1x1x1 block=32x1x1 regs=0 shmem=0\n'
		printf '1,0,0,0,0,0x10,0,load,global,0xfffffffffff8,8,,0,,0,,\n'
		printf '1,0,0,0,1,0x10,0,load,global,0xfffffffffffe,4,,0,,0,,\n'
	} >"$T/a.csv"
	import_bad "$T/a.csv" "$T/a.csv:10: column addr: address 0xfffffffffffe (4 bytes) reaches 2^48, where no GPU modelled has memory"
}
