/* gc-import --format accelsim of a kernelslist.g: the list fuzzed, with a
 * small .traceg and raw .trace beside it that its lines can name. */
#include "fuzz.h"
#include "fuzz_import.h"

#include <string.h>

static const gc_format f = {"accelsim", "", gc_accelsim_probe, gc_accelsim_import};

static const char traceg[] =
	"-kernel name = _Z7versionPf\n"
	"-kernel id = 1\n"
	"-grid dim = (1,1,1)\n"
	"-block dim = (32,1,1)\n"
	"-shmem = 0\n"
	"-nregs = 8\n"
	"-binary version = 70\n"
	"-cuda stream id = 0\n"
	"-shmem base_addr = 0x00007f73cb000000\n"
	"-local mem base_addr = 0x00007f73c9000000\n"
	"-nvbit version = 1.5.5\n"
	"-accelsim tracer version = 4\n"
	"-enable lineinfo = 0\n"
	"\n"
	"#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n"
	"\n"
	"\n"
	"\n"
	"#BEGIN_TB\n"
	"\n"
	"thread block = 0,0,0\n"
	"\n"
	"warp = 0\n"
	"insts = 5\n"
	"0000 ffffffff 1 R1 MOV 0 0 \n"
	"0010 0000000f 1 R4 LDG.E.64 1 R4 8 1 0x7f3000000100 8 \n"
	"0020 00000003 0 STG.E 2 R2 R4 4 0 0x00007f3000000200 0x00007f3000000300 \n"
	"0030 00000005 1 R3 LDG.E.U8 1 R4 1 2 0x7f3000000400 -2 \n"
	"0040 ffffffff 0 EXIT 0 0 \n"
	"\n"
	"#END_TB\n"
;

static const char trace[] =
	"-kernel name = _Z3rawPd\n"
	"-kernel id = 3\n"
	"-grid dim = (2,1,1)\n"
	"-block dim = (64,1,1)\n"
	"-shmem = 0\n"
	"-nregs = 12\n"
	"-binary version = 75\n"
	"-cuda stream id = 0\n"
	"-shmem base_addr = 0x00007fcecd000000\n"
	"-local mem base_addr = 0x00007fcecb000000\n"
	"-nvbit version = 1.5.5\n"
	"-accelsim tracer version = 4\n"
	"-enable lineinfo = 0\n"
	"\n"
	"#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n"
	"\n"
	"1 0 0 1 0000 ffffffff 1 R1 MOV 0 0 \n"
	"0 0 0 0 0000 ffffffff 1 R1 MOV 0 0 \n"
	"1 0 0 1 0010 00000003 1 R4 LDG.E.64.SYS 1 R4 8 1 0x7fceb2ae2900 8 \n"
	"0 0 0 0 0010 00000001 1 R4 LDG.E.64.SYS 1 R4 8 1 0x7fceb2ae2000 8 \n"
	"0 0 0 1 0020 00000003 0 LDGSTS.E.64 2 R2 R4 8 1 0x100 8 \n"
	"1 0 0 1 0020 00000001 0 STG.E.64.SYS 2 R2 R4 8 2 0x7fceb2c00000 \n"
	"0 0 0 1 0020 00000003 0 LDGSTS.E.64 2 R2 R4 8 1 0x7fceb2ae3000 8 \n"
	"0 0 0 0 0030 ffffffff 0 EXIT 0 0 \n"
	"1 0 0 1 0040 00000001 1 R2 LDL.64 1 R1 8 2 0xfffc80 \n"
;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	if (!ready) {
		fuzz_file("kernel-1.traceg", (const uint8_t *)traceg, strlen(traceg));
		fuzz_file("kernel-3.trace", (const uint8_t *)trace, strlen(trace));
		ready = 1;
	}
	fuzz_import(&f, "kernelslist.g", data, size, size & 1, NULL);
	return 0;
}
