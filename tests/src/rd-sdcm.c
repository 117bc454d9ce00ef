/*
 * rd-sdcm - print seed 003 formula 1, P(h|D) for an A-way cache of B
 * lines, as computed by lib/model/sdcm.c, with 17 significant digits.
 *
 * Usage: rd-sdcm D A B   (D may be "inf")
 */
#include "model/sdcm.h"
#include "prog/prog.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	gc_prog_init("rd-sdcm", argc, argv);
	if (argc != 4)
		gc_usage_error("usage: rd-sdcm D A B");
	uint64_t d = strcmp(argv[1], "inf") == 0 ? GC_RD_INF
						  : gc_num("D", argv[1], 0, UINT64_MAX - 2);
	uint64_t a = gc_num("A", argv[2], 1, UINT64_MAX), b = gc_num("B", argv[3], 1, UINT64_MAX);
	char why[160];
	if (gc_sdcm_check(a, b, why, sizeof why) < 0)
		gc_usage_error("%s", why);
	printf("%.17g\n", gc_sdcm_phit(d, a, b));
	gc_close_stdout();
	return 0;
}
