/* gc-plot's CSV table (RFC 4180 quoting), read and drawn by gc-plot's own
 * code: the filter is compiled in (its main renamed), and gc_die's exit is
 * wrapped (-Wl,--wrap=exit) to come back here.  Three pictures in turn:
 * lines with series, bars, a heat-map, over the columns of the seeds. */
#include "fuzz.h"

#include <setjmp.h>
int gc_plot_main(int argc, char **argv);
#define main gc_plot_main
#include "../../filters/gc-plot.c"
#undef main

/* An exit on the way (gc_die) leaves what the table held: no leak check
 * in this target. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

static jmp_buf back;
static int inside;
void __real_exit(int status) __attribute__((noreturn));
void __wrap_exit(int status) __attribute__((noreturn));
void __wrap_exit(int status)
{
	if (inside)
		longjmp(back, 1);
	__real_exit(status);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *argv_sets[3][12] = {
		{"gc-plot", "--x", "factor", "--y", "miss_rate", "--by", "param", "--logy", NULL},
		{"gc-plot", "--kind", "bar", "--x", "kernel", "--y", "miss_rate", "--by", "param", NULL},
		{"gc-plot", "--kind", "heat", "--x", "factor", "--y", "param", "--z", "miss_rate", NULL},
	};
	static struct cmdline cl;
	static struct job j;
	const char *path = fuzz_file("t.csv", data, size);
	char **argv = argv_sets[size % 3];
	int argc = 0;
	char *args[14];
	while (argv[argc]) {
		args[argc] = argv[argc];
		argc++;
	}
	args[argc++] = (char *)path;
	args[argc] = NULL;
	gc_progname = "gc-plot"; /* gc_die's messages go to stderr (-close_fd_mask=2) */
	optind = 1;
	inside = 1;
	if (setjmp(back) == 0) {
		parse_cmdline(argc, args, &cl);
		memset(&j, 0, sizeof j);
		j.cl = &cl;
		read_table(&j.t, cl.input, 0);
		pick_rows(&j);
		categorise(&j);
		begin_picture(&j);
		if (cl.kind == K_HEAT)
			draw_heat(&j);
		else
			draw_series(&j);
		gc_plot_end(&j.p);
		fclose(j.out);
		j.out = NULL;
		free(j.pic);
		free_job(&j);
	}
	inside = 0;
	return 0;
}
