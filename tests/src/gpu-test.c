/*
 * gpu-test - drive the typed GPU configuration (lib/config/gpu.h) for
 * tests/gc-config.bats.  Reads presets and files, prints text.
 *
 *   gpu-test load NAME|FILE          --gpu machinery: "NAME: ok", or exit 2
 *   gpu-test parse FILE              the library path (no exit inside)
 *   gpu-test dump NAME|FILE          every key as "key = value"
 *   gpu-test defaults                the built-in defaults, the same way
 *   gpu-test get NAME|FILE KEY...    values, one per line
 *   gpu-test set NAME|FILE K=V...    an options layer over a preset, dumped
 *   gpu-test cache STRING            a GPGPU-Sim cache string decoded
 *   gpu-test occupancy NAME THREADS REGS SHMEM
 *   gpu-test carveout NAME THREADS REGS SHMEM
 *   gpu-test header NAME|FILE        header text and stream round trips
 *   gpu-test keys                    the key table, tab-separated
 *   gpu-test man                     the KEYS section of gc-config(5)
 *   gpu-test selftest [UNIT]         checks that need C, as TAP (check.h)
 */
#include "config/gpu.h"
#include "prog/gpuopt.h"
#include "prog/prog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static const char usage_text[] =
	"usage: gpu-test load|parse|dump|get|set|cache|occupancy|carveout|header|keys|man|"
	"selftest|defaults ...\n";

static void dump(const gc_gpu_config *c)
{
	char *t = gc_gpu_text(c, "", " = ");
	if (!t)
		gc_die(1, "out of memory");
	fputs(t, stdout);
	free(t);
}

static unsigned num(const char *s)
{
	return (unsigned)gc_num("number", s, 0, 0xffffffffu);
}

static void print_value(const gc_gpu_config *c, const char *key)
{
	char buf[512];
	int k = gc_gpu_key_find(key);
	if (k < 0 || gc_gpu_format(c, k, buf, sizeof buf) < 0)
		gc_die(2, "no key '%s'", key);
	printf("%s\n", buf);
}

static void fmt_blocks(char *b, size_t n, unsigned v)
{
	if (v == GC_GPU_UNLIMITED)
		snprintf(b, n, "unlimited");
	else
		snprintf(b, n, "%u", v);
}

static void size_text(char *b, size_t n, uint64_t v)
{
	/* The library's canonical size text, through a key of type size. */
	gc_gpu_config c;
	gc_gpu_defaults(&c);
	c.sm.shmem = v;
	gc_gpu_format(&c, gc_gpu_key_find("sm.shmem"), b, n);
}

static int cmd_occupancy(char **argv)
{
	gc_gpu_config c;
	gc_occupancy o;
	char l[GC_NLIMITS][24], sp[32];
	gc_gpu_config_load(&c, argv[0]);
	gc_gpu_occupancy(&c, num(argv[1]), num(argv[2]), gc_num("shmem", argv[3], 0, 1u << 30), &o);
	for (int i = 0; i < GC_NLIMITS; i++)
		fmt_blocks(l[i], sizeof l[i], o.limit[i]);
	size_text(sp, sizeof sp, o.shmem_per_block);
	printf("active=%u limiter=%s threads=%s warps=%s blocks=%s registers=%s shmem=%s "
	       "regs_per_warp=%u shmem_per_block=%s\n",
	       o.active, o.why ? o.why : gc_gpu_limit_name(o.limiter), l[0], l[1], l[2], l[3],
	       l[4], o.regs_per_warp, sp);
	return 0;
}

static int cmd_carveout(char **argv)
{
	gc_gpu_config c;
	gc_carveout co;
	char a[32], b[32], u[32];
	gc_gpu_config_load(&c, argv[0]);
	if (gc_gpu_carveout(&c, num(argv[1]), num(argv[2]), gc_num("shmem", argv[3], 0, 1u << 30),
			    &co) < 0) {
		printf("cannot run\n");
		return 1;
	}
	size_text(a, sizeof a, co.shmem);
	size_text(b, sizeof b, co.l1_size);
	size_text(u, sizeof u, co.shmem_used);
	printf("shmem=%s l1=%s sets=%u ways=%u active=%u used=%s\n", a, b, co.l1_sets, co.l1_ways,
	       co.active, u);
	return 0;
}

static int cmd_cache(const char *s)
{
	static const char *const names[] = {"", "4.x", "3.x", "3.x-nosif"};
	static const char *const fields[] = {
		"l1.sets", "l1.line", "l1.ways", "l1.sector", "l1.index", "l1.replacement",
		"l1.write", "l1.alloc", "l1.write_alloc", "l1.mshr_kind", "l1.mshr_entries",
		"l1.mshr_merge", "l1.miss_queue", "l1.port"};
	gc_gpu_cache cache;
	gc_gpu_config c;
	char why[256], buf[256];
	memset(&cache, 0, sizeof cache);
	int g = gc_gpu_cache_parse(&cache, s, why, sizeof why);
	if (g < 0)
		gc_die(2, "%s: %s", s, why);
	gc_gpu_defaults(&c);
	gc_gpu_begin(&c);
	if (gc_gpu_set(&c, "l1.cache", s, 0, why, sizeof why) < 0)
		gc_die(2, "%s", why);
	printf("grammar=%s\n", names[g]);
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		gc_gpu_format(&c, gc_gpu_key_find(fields[i]), buf, sizeof buf);
		printf("%s=%s\n", fields[i] + 3, buf);
	}
	size_text(buf, sizeof buf, cache.size);
	printf("size=%s\n", buf);
	if (gc_gpu_cache_format(&cache, buf, sizeof buf) < 0)
		gc_die(1, "no 4.x spelling");
	printf("4.x=%s\n", buf);
	return 0;
}

/* Parse "prefix key=value" lines back as one layer over the defaults: what
 * gc_gpu_header_read does with a header's gpu.* keys. */
static int read_text(gc_gpu_config *c, char *text, const char *prefix, char *err, size_t len)
{
	char msg[512];
	size_t pl = strlen(prefix);
	gc_gpu_defaults(c);
	gc_gpu_begin(c);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *eq = strchr(line, '=');
		if (strncmp(line, prefix, pl) != 0 || !eq) {
			snprintf(err, len, "bad line '%s'", line);
			return -1;
		}
		*eq = 0;
		if (gc_gpu_set(c, line + pl, eq + 1, 0, msg, sizeof msg) < 0) {
			snprintf(err, len, "%s", msg);
			return -1;
		}
	}
	return gc_gpu_finish(c, err, len);
}

static int same(const gc_gpu_config *a, const gc_gpu_config *b, const char *what)
{
	char *ta = gc_gpu_text(a, "", "="), *tb = gc_gpu_text(b, "", "=");
	int ok = ta && tb && strcmp(ta, tb) == 0;
	if (!ok)
		fprintf(stderr, "gpu-test: %s round trip differs:\n%s---\n%s", what, ta, tb);
	free(ta);
	free(tb);
	return ok;
}

static int cmd_header(const char *arg)
{
	gc_gpu_config c, back;
	char err[512];
	gc_gpu_config_load(&c, arg);

	/* 1. The header text of every key, read back. */
	char *text = gc_gpu_text(&c, GC_GPU_HEADER_PREFIX, "=");
	if (!text)
		gc_die(1, "out of memory");
	int n = 0;
	for (char *p = text; *p; p++)
		n += *p == '\n';
	if (read_text(&back, text, GC_GPU_HEADER_PREFIX, err, sizeof err) < 0)
		gc_die(1, "header text: %s", err);
	free(text);
	if (!same(&c, &back, "header text"))
		return 1;
	printf("text: %d keys round trip\n", n);

	/* 2. Through a stream header, written to a file and read back. */
	gc_header h;
	gc_header_init(&h, GC_KIND_REQUEST);
	gc_header_set(&h, "tool", "gpu-test");
	if (gc_gpu_header_write(&c, &h, err, sizeof err) < 0) {
		printf("stream: %s\n", err);
		gc_header_free(&h);
		return 3;
	}
	char path[] = "/tmp/gpu-test-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		gc_die(1, "mkstemp failed");
	close(fd);
	gc_writer *w = gc_writer_open(path, &h, GC_W_FORCE);
	gc_header_free(&h);
	if (!w || gc_writer_failed(w) || gc_writer_close(w) < 0)
		gc_die(1, "cannot write %s", path);
	gc_writer_free(w);
	gc_reader *r = gc_reader_open(path);
	if (!r || gc_reader_failed(r))
		gc_die(1, "cannot read %s", path);
	int got = gc_gpu_header_read(&back, gc_reader_header(r), err, sizeof err);
	gc_reader_close(r);
	unlink(path);
	if (got < 0)
		gc_die(1, "%s", err);
	if (!same(&c, &back, "stream header"))
		return 1;
	printf("stream: %d keys round trip\n", got);
	return 0;
}

static void cmd_keys(void)
{
	gc_gpu_config d;
	char exp[512], def[512];
	gc_gpu_defaults(&d);
	for (int i = 0; i < gc_gpu_nkeys(); i++) {
		gc_gpu_key_expected(i, exp, sizeof exp);
		if (gc_gpu_format(&d, i, def, sizeof def) < 0)
			snprintf(def, sizeof def, "-");
		printf("%s\t%s\t%s\t%s\t%s\n", gc_gpu_key_name(i), gc_gpu_key_type(i), def, exp,
		       gc_gpu_key_meaning(i));
	}
}

/* A text line of the page as it is made (roff_text appends to it,
 * roff_flush writes it). */
static char roff_line[4096];
static size_t roff_len;

static void roff_put(const char *s)
{
	size_t n = strlen(s);
	if (roff_len + n < sizeof roff_line) {
		memcpy(roff_line + roff_len, s, n + 1);
		roff_len += n;
	}
}

/* roff text: backslashes as \e, hyphens as \-; `breaks` lets a long
 * value break after '.', ';' and ','. */
static void roff_text(const char *s, int breaks)
{
	char c[2] = {0, 0};
	for (; *s; s++) {
		if (*s == '\\')
			roff_put("\\e");
		else if (*s == '-')
			roff_put("\\-");
		else
			roff_put((c[0] = *s, c));
		if (breaks && strchr(".;,", *s))
			roff_put("\\:");
	}
}

/* Write the line made so far, broken at spaces into lines of at most 79
 * bytes (mandoc -Tlint's limit is 80); a piece that would start with '.'
 * or '\'' (a request) gets \& first.  A filled paragraph reads the same. */
static void roff_flush(void)
{
	char *p = roff_line;
	while (*p) {
		size_t n = strlen(p), cut = n;
		int join = 0;
		if (n > 79) {
			cut = 0;
			for (size_t i = 1; i < n && i <= 79; i++)
				if (p[i] == ' ')
					cut = i;
			/* a word longer than a line: after its last break point
			 * (\:) that fits, the next line joined on with \c */
			for (size_t i = 1; !cut && i + 1 < n && i + 2 <= 77; i++)
				if (p[i] == '\\' && p[i + 1] == ':')
					join = (int)(i + 2);
			if (!cut && join)
				cut = (size_t)join;
			if (!cut)
				cut = strcspn(p + 1, " ") + 1;
		}
		if (p != roff_line && (*p == '.' || *p == '\''))
			fputs("\\&", stdout);
		fwrite(p, 1, cut, stdout);
		if (join && cut == (size_t)join)
			fputs("\\c", stdout);
		putchar('\n');
		p += cut;
		if (*p == ' ')
			p++;
	}
	roff_len = 0;
	roff_line[0] = '\0';
}

static void roff(const char *s)
{
	roff_text(s, 0);
}

static void cmd_man(void)
{
	gc_gpu_config d;
	char exp[512], def[512];
	gc_gpu_defaults(&d);
	for (int i = 0; i < gc_gpu_nkeys(); i++) {
		gc_gpu_key_expected(i, exp, sizeof exp);
		printf(".TP\n.B ");
		roff(gc_gpu_key_name(i));
		roff_flush();
		roff(gc_gpu_key_meaning(i));
		roff_flush();
		printf(".br\n");
		exp[0] = (char)(exp[0] >= 'a' && exp[0] <= 'z' ? exp[0] - 'a' + 'A' : exp[0]);
		roff(exp);
		if (gc_gpu_format(&d, i, def, sizeof def) >= 0) {
			roff_put("; default ");
			roff_text(def, strlen(def) > 40);
		}
		roff_put(".");
		roff_flush();
	}
}

/* ---- selftest --------------------------------------------------------- */

/* Set key=val on the defaults (one layer) and return the message. */
static const char *set_msg(const char *key, const char *val)
{
	static char err[512];
	gc_gpu_config c;
	gc_gpu_defaults(&c);
	gc_gpu_begin(&c);
	if (gc_gpu_set(&c, key, val, 7, err, sizeof err) == 0 &&
	    gc_gpu_finish(&c, err, sizeof err) == 0)
		return "ok";
	return err;
}

static const char *cache_why(const char *s)
{
	static char why[256];
	gc_gpu_cache c;
	memset(&c, 0, sizeof c);
	if (gc_gpu_cache_parse(&c, s, why, sizeof why) >= 0)
		return "ok";
	return why;
}

static void selftest_keys(void)
{
	int pseudo = 0;
	for (int i = 0; i < gc_gpu_nkeys(); i++) {
		int found = gc_gpu_key_find(gc_gpu_key_name(i));
		CHECK_MSG(found == i, "key %d, %s: found as %d", i, gc_gpu_key_name(i), found);
		pseudo += gc_gpu_key_pseudo(i);
	}
	CHECK_U64(gc_gpu_nkeys(), 117);
	CHECK_U64(pseudo, 2);
	CHECK(gc_gpu_key_find("l1.way") == -1);
}

static void selftest_values(void)
{
	/* key, value, and the message (ok: accepted) */
	static const struct {
		const char *key, *val, *want;
	} t[] = {
		{"l1.way", "4", "unknown key 'l1.way'"},
		{"sm.count", "x",
		 "bad value 'x' for key 'sm.count' (expected an integer from 1 to 65535)"},
		{"l1.line", "96",
		 "bad value '96' for key 'l1.line' (expected a power of two from 4 to 4096)"},
		{"sm.unified_size", "2G",
		 "bad value '2G' for key 'sm.unified_size' (expected a size in bytes from 0 to 1G; "
		 "K, M, G multiply by 1024)"},
		{"l1.replacement", "plru",
		 "bad value 'plru' for key 'l1.replacement' (expected one of lru, fifo, random "
		 "(or L, F))"},
		{"miss.sigma", "nan",
		 "bad value 'nan' for key 'miss.sigma' (expected a number from 0 to 1000000)"},
		{"l1.skip_global", "1",
		 "bad value '1' for key 'l1.skip_global' (expected yes or no)"},
		{"l1.prefetch", "stream",
		 "bad value 'stream' for key 'l1.prefetch' (expected one of none, stride, mta)"},
		{"l2.prefetch", "nextline", "ok"},
		{"l1.prefetch_degree", "65",
		 "bad value '65' for key 'l1.prefetch_degree' (expected an integer from 1 to 64)"},
		{"cc", "7", "bad value '7' for key 'cc' (expected MAJOR.MINOR such as 7.0)"},
		{"sm.shmem_options", "16K,,48K",
		 "bad value '16K,,48K' for key 'sm.shmem_options' (expected none, or up to 16 "
		 "ascending sizes separated by commas: an empty size)"},
		/* Aliases: the GPGPU-Sim letters and numbers. */
		{"l1.index", "H", "ok"},
		{"coalesce.arch", "61", "ok"},
		{"l2.partition_index", "2", "ok"},
		{"l2.partition_index", "bitwise-permutation",
		 "l2.partition_index bitwise-permutation needs a power-of-two l2.channels, not 5"},
		/* A derived size follows the geometry of the layer. */
		{"l1.sets", "64", "l1.size 32K + sm.shmem 48K is not sm.unified_size 64K"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		const char *got = set_msg(t[i].key, t[i].val);
		CHECK_MSG(strcmp(got, t[i].want) == 0, "%s=%s:\n#     got:  '%s'\n#     want: '%s'",
			  t[i].key, t[i].val, got, t[i].want);
	}
}

static void selftest_cache(void)
{
	gc_gpu_cache c;
	char buf[128];
	static const char *const strings[] = {
		"S:4:128:64,L:T:m:L:L,A:512:8,16:0,32",  "S:32:128:24,L:B:m:L:P,A:192:4,32:0,32",
		"N:32:128:4,L:L:m:N:H,S:64:8,8:0,128",   "S:4:128:256,L:T:m:L:L,A:384:48,16:0,32",
		"S:256:128:20,L:B:m:L:X,A:384:4,32:0,32", "N:64:128:6,L:L:m:N:H,S:64:8,8:0,32",
	};
	for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
		memset(&c, 0, sizeof c);
		int grammar = gc_gpu_cache_parse(&c, strings[i], buf, sizeof buf);
		CHECK_MSG(grammar == GC_GRAMMAR_4X, "%s: grammar %d, %s", strings[i], grammar, buf);
		gc_gpu_cache_format(&c, buf, sizeof buf);
		CHECK_STR(buf, strings[i]);
	}
	/* Strings refused (and two accepted: ok) with the reason. */
	static const struct {
		const char *s, *want;
	} bad[] = {
		{"S:4:100:64,L:T:m:L:L,A:512:8,16:0,32",
		 "line '100' is not a power of two from 4 to 4096"},
		{"S:4:64:64,L:T:m:L:L,A:512:8,16:0,32",
		 "sector caches (S) need 128-byte lines (4 sectors of 32 bytes)"},
		{"S:4:128:64,L:T:m:L:C,A:512:8,16:0,32",
		 "set index C (custom) is not implemented (GPGPU-Sim maps everything to set 0)"},
		{"N:4:128:24,L:R:f:N:L,T:512:8,128:2",
		 "MSHR kind T is a texture cache's; data caches use A or S"},
		{"S:4:128:64,L:T:m:L:L", "too few fields (at least <geometry>,<policies>,<mshr>)"},
		{"S:4:128:64,L:T:m:L:L,A:512:8,16,32", "a port width needs <mq>:<fifo> before it"},
		{"S:3:128:64,L:T:m:L:L,A:512:8,16:0,32", "sets '3' is not a power of two"},
		{"none", "'none' (no cache) has no geometry"},
		{"64:128:8,L:B:m:N,A:16:4,4", "ok"},
		{"64:128:8,L:B:m:N:L:X,A:16:4,4", "<rp>:<wp>:<ap>:<wap>[:<sif>] has 6 fields"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *got = cache_why(bad[i].s);
		CHECK_MSG(strcmp(got, bad[i].want) == 0, "%s:\n#     got:  '%s'\n#     want: '%s'",
			  bad[i].s, got, bad[i].want);
	}
}

static void selftest_layers(void)
{
	gc_gpu_config c;
	char err[512];
	/* Options over a preset: the size follows the new associativity. */
	gc_gpu_config_load(&c, "volta-v100");
	gc_gpu_begin(&c);
	CHECK_U64(gc_gpu_set(&c, "l1.ways", "128", 0, err, sizeof err), 0);
	CHECK_U64(gc_gpu_finish(&c, err, sizeof err), 0);
	CHECK_U64(c.l1.size, 4 * 128 * 128);
	/* ... and the sets follow a new size. */
	gc_gpu_begin(&c);
	gc_gpu_set(&c, "l1.size", "64K", 0, err, sizeof err);
	gc_gpu_set(&c, "l1.ways", "64", 0, err, sizeof err);
	CHECK_U64(gc_gpu_finish(&c, err, sizeof err), 0);
	CHECK_U64(c.l1.sets, 8);
	/* A cache string and one of its keys in one layer conflict. */
	gc_gpu_begin(&c);
	gc_gpu_set(&c, "l1.ways", "32", 3, err, sizeof err);
	gc_gpu_set(&c, "l1.cache", "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32", 5, err, sizeof err);
	CHECK_STR(err, "key 'l1.cache' sets 'l1.ways', already set on line 3");
	CHECK_U64(c.l1.ways, 32);
	CHECK_U64(c.given[gc_gpu_key_find("l1.sets")], 0);
	/* A bad value leaves the layer as it was. */
	gc_gpu_config_load(&c, "volta-v100");
	gc_gpu_begin(&c);
	gc_gpu_set(&c, "l1.ways", "0", 0, err, sizeof err);
	CHECK_U64(c.l1.ways, 64);
	CHECK_U64(c.given[gc_gpu_key_find("l1.ways")], 0);
	/* A header without gpu.* keys. */
	gc_header h;
	gc_header_init(&h, GC_KIND_ACCESS);
	gc_header_set(&h, "tool", "x");
	CHECK_U64(gc_gpu_header_read(&c, &h, err, sizeof err), 0);
	gc_header_free(&h);
}

static void selftest_occupancy(void)
{
	static const char *const presets[] = {
		"fermi-gtx470-16k", "fermi-gtx470-48k", "pascal-gtx1080", "volta-titanv",
		"volta-v100", "turing-rtx2060", "ampere-rtx3070", "ampere-a100", "hopper-h100"};
	gc_gpu_config c;
	/* With no allocation unit and one register file, the register limit is
	 * seed 003 formula 5 exactly: MaxRegPerSM / RegPerBlk. */
	gc_gpu_config_load(&c, "volta-v100");
	c.sm.reg_alloc_unit = 1;
	c.sm.reg_partitions = 1;
	gc_occupancy o;
	for (unsigned regs = 1; regs <= 255; regs += 7)
		for (unsigned t = 32; t <= 1024; t += 32) {
			gc_gpu_occupancy(&c, t, regs, 0, &o);
			CHECK_MSG(o.limit[GC_LIMIT_REGISTERS] == 65536 / (regs * t) || o.why,
				  "formula 5, %u threads, %u regs: %u", t, regs,
				  o.limit[GC_LIMIT_REGISTERS]);
		}
	/* Formula 7 picks what reference §3.4 picks: the smallest option that
	 * holds the shared memory of the active blocks. */
	for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++) {
		gc_gpu_config_load(&c, presets[p]);
		if (c.sm.carveout != GC_CARVEOUT_ADAPTIVE)
			continue;
		for (unsigned t = 32; t <= 1024; t *= 2)
			for (uint64_t s = 0; s <= c.sm.max_shmem_per_block; s += 3000) {
				gc_carveout co;
				if (gc_gpu_carveout(&c, t, 32, s, &co) < 0)
					continue;
				uint64_t want = c.sm.options[c.sm.noptions - 1];
				for (int i = c.sm.noptions - 1; i >= 0; i--)
					if (c.sm.options[i] >= co.shmem_used)
						want = c.sm.options[i];
				CHECK_MSG(co.shmem == want &&
					  co.l1_size == (uint64_t)co.l1_sets * co.l1_ways * c.l1.line &&
					  co.l1_size + co.shmem == c.sm.unified,
					  "%s carve-out %u threads %llu B", presets[p], t,
					  (unsigned long long)s);
			}
	}
}

static const check_unit selftests[] = {
	{"keys", selftest_keys},     {"values", selftest_values},
	{"cache", selftest_cache},   {"layers", selftest_layers},
	{"occupancy", selftest_occupancy},
};

int main(int argc, char **argv)
{
	gc_prog_init("gpu-test", argc, argv);
	if (argc < 2) {
		fputs(usage_text, stderr);
		return 2;
	}
	const char *cmd = argv[1];
	gc_gpu_config c;
	char err[640];
	if (strcmp(cmd, "load") == 0 && argc == 3) {
		gc_gpu_config_load(&c, argv[2]);
		printf("%s: ok\n", c.name);
	} else if (strcmp(cmd, "parse") == 0 && argc == 3) {
		if (gc_gpu_parse_file(&c, argv[2], err, sizeof err) < 0) {
			fprintf(stderr, "gpu-test: %s\n", err);
			return 2;
		}
		printf("%s: ok\n", c.name);
	} else if (strcmp(cmd, "dump") == 0 && argc == 3) {
		gc_gpu_config_load(&c, argv[2]);
		dump(&c);
	} else if (strcmp(cmd, "defaults") == 0 && argc == 2) {
		gc_gpu_defaults(&c);
		dump(&c);
	} else if (strcmp(cmd, "get") == 0 && argc >= 4) {
		gc_gpu_config_load(&c, argv[2]);
		for (int i = 3; i < argc; i++)
			print_value(&c, argv[i]);
	} else if (strcmp(cmd, "set") == 0 && argc >= 3) {
		gc_gpu_config_load(&c, argv[2]);
		gc_gpu_begin(&c);
		for (int i = 3; i < argc; i++) {
			char *eq = strchr(argv[i], '=');
			if (!eq)
				gc_usage_error("'%s' is not KEY=VALUE", argv[i]);
			*eq = 0;
			gc_gpu_config_option(&c, argv[i], argv[i], eq + 1);
		}
		gc_gpu_config_finish(&c);
		dump(&c);
	} else if (strcmp(cmd, "cache") == 0 && argc == 3) {
		return cmd_cache(argv[2]);
	} else if (strcmp(cmd, "occupancy") == 0 && argc == 6) {
		return cmd_occupancy(argv + 2);
	} else if (strcmp(cmd, "carveout") == 0 && argc == 6) {
		return cmd_carveout(argv + 2);
	} else if (strcmp(cmd, "header") == 0 && argc == 3) {
		return cmd_header(argv[2]);
	} else if (strcmp(cmd, "keys") == 0 && argc == 2) {
		cmd_keys();
	} else if (strcmp(cmd, "man") == 0 && argc == 2) {
		cmd_man();
	} else if (strcmp(cmd, "selftest") == 0 && argc <= 3) {
		return check_run(selftests, CHECK_NUNITS(selftests), argc == 3 ? argv[2] : NULL);
	} else {
		fputs(usage_text, stderr);
		return 2;
	}
	gc_close_stdout();
	return 0;
}
