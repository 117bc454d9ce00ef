/*
 * gpuopt.c - --gpu NAME|FILE and the GPU options of every tool: where the
 * presets are searched, and config/gpu.h's one-line messages turned into
 * exits (2 for usage, 1 for a bad input header).
 */
#include "prog/gpuopt.h"
#include "prog/prog.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GC_DATADIR
#define GC_DATADIR "/usr/local/share/gc"
#endif

static int readable(const char *p)
{
	return access(p, R_OK) == 0;
}

static int find_preset(const char *name, char *out, size_t len)
{
	const char *env = getenv("GC_GPU_PATH");
	if (env && *env) {
		char *dirs = strdup(env), *save = NULL;
		for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			snprintf(out, len, "%s/%s.gpu", d, name);
			if (readable(out)) {
				free(dirs);
				return 1;
			}
		}
		free(dirs);
	}
	/* The build tree (build/bin beside share/), or an installed prefix. */
	char exe[300];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(out, len, "%s/../../share/gpus/%s.gpu", exe, name);
			if (readable(out))
				return 1;
			snprintf(out, len, "%s/../share/gc/gpus/%s.gpu", exe, name);
			if (readable(out))
				return 1;
		}
	}
	snprintf(out, len, "%s/gpus/%s.gpu", GC_DATADIR, name);
	return readable(out);
}

/* A GPGPU-Sim configuration as lists (gc-config(5), GPGPU-SIM
 * CONFIGURATIONS): DIR/gpgpusim.config with DIR/trace.config when there is
 * one, or the file alone; unknown options are one warning. */
static void load_gpgpusim(gc_gpu *g, const char *config, const char *trace)
{
	gc_gpgpusim s;
	char err[700];
	if (gc_gpgpusim_convert(&s, config, trace, err, sizeof err) < 0)
		gc_die(GC_EXIT_USAGE, "--gpu: %s", err);
	if (s.nunknown && !gc_prog_quiet)
		gc_warn("--gpu: %s: %d option%s gc does not know, ignored (the first: %s)", config,
			s.nunknown, s.nunknown == 1 ? "" : "s", s.unknown);
	for (int i = 0; i < s.g.n; i++)
		free(s.why[i]);
	*g = s.g;
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ---- the presets ---------------------------------------------------------- */

/* Every preset on the search path, first found first (a name found twice
 * counts once), sorted by name; caller frees each and the list. */
static int preset_dirs(char dirs[][512], int max)
{
	int n = 0;
	const char *env = getenv("GC_GPU_PATH");
	if (env && *env) {
		char *d = strdup(env), *save = NULL;
		for (char *p = d ? strtok_r(d, ":", &save) : NULL; p && n < max;
		     p = strtok_r(NULL, ":", &save))
			snprintf(dirs[n++], 512, "%s", p);
		free(d);
	}
	char exe[300];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (k > 0) {
		exe[k] = 0;
		char *slash = strrchr(exe, '/');
		if (slash && n + 2 <= max) {
			*slash = 0;
			snprintf(dirs[n++], 512, "%s/../../share/gpus", exe);
			snprintf(dirs[n++], 512, "%s/../share/gc/gpus", exe);
		}
	}
	if (n < max)
		snprintf(dirs[n++], 512, "%s/gpus", GC_DATADIR);
	return n;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int gc_gpu_presets(char ***names)
{
	char dirs[16][512];
	int nd = preset_dirs(dirs, 16), n = 0, cap = 0;
	char **v = NULL;
	for (int i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		for (struct dirent *e; (e = readdir(d));) {
			size_t l = strlen(e->d_name);
			if (l <= 4 || strcmp(e->d_name + l - 4, ".gpu") != 0 || e->d_name[0] == '.')
				continue;
			int dup = 0;
			for (int j = 0; j < n && !dup; j++)
				dup = strncmp(v[j], e->d_name, l - 4) == 0 && v[j][l - 4] == 0;
			if (dup)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				v = gc_xrealloc(v, (size_t)cap * sizeof *v);
			}
			v[n] = gc_xstrdup(e->d_name);
			v[n++][l - 4] = 0;
		}
		closedir(d);
	}
	if (n)
		qsort(v, (size_t)n, sizeof *v, by_name);
	*names = v;
	return n;
}

void gc_gpu_list_presets(FILE *f)
{
	char **v, path[600], err[600];
	int n = gc_gpu_presets(&v);
	for (int i = 0; i < n; i++) {
		gc_gpu g;
		const char *d = NULL;
		if (find_preset(v[i], path, sizeof path) &&
		    gc_gpu_read_lists(&g, path, err, sizeof err) == 0) {
			d = gc_gpu_get(&g, "description");
			fprintf(f, "%-18s %s\n", v[i], d ? d : "");
			gc_gpu_free(&g);
		} else {
			fprintf(f, "%s\n", v[i]);
		}
		free(v[i]);
	}
	free(v);
}

_Noreturn void gc_gpu_list_exit(void)
{
	gc_gpu_list_presets(stdout);
	gc_close_stdout();
	exit(0);
}

/* --gpu NAME that names no preset: a usage error that lists them. */
static _Noreturn void unknown_preset(const char *arg)
{
	char **v, list[2048];
	int n = gc_gpu_presets(&v);
	size_t at = 0;
	list[0] = 0;
	for (int i = 0; i < n; i++) {
		if (at < sizeof list)
			at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", v[i]);
		free(v[i]);
	}
	free(v);
	gc_usage_error("--gpu: no preset or file named '%s' (presets: %s; or give a file, a folder "
		       "with gpgpusim.config, or set GC_GPU_PATH)", arg, n ? list : "none found");
}

void gc_gpu_load(gc_gpu *g, const char *arg)
{
	char path[sizeof g->path], err[600];
	if (is_dir(arg)) {
		char cfg[sizeof g->path], tr[sizeof g->path];
		snprintf(cfg, sizeof cfg, "%s/gpgpusim.config", arg);
		snprintf(tr, sizeof tr, "%s/trace.config", arg);
		if (!readable(cfg))
			gc_usage_error("--gpu: %s: a folder without gpgpusim.config", arg);
		load_gpgpusim(g, cfg, readable(tr) ? tr : NULL);
		snprintf(g->name, sizeof g->name, "%s", arg);
		return;
	}
	if (strchr(arg, '/') || readable(arg))
		snprintf(path, sizeof path, "%s", arg);
	else if (!find_preset(arg, path, sizeof path))
		unknown_preset(arg);
	if (gc_gpu_is_gpgpusim(path) == 1) {
		load_gpgpusim(g, path, NULL);
		snprintf(g->name, sizeof g->name, "%s", arg);
		return;
	}
	/* One reader of the file syntax: gpu_file.c's, which reports instead of
	 * exiting. */
	if (gc_gpu_read_lists(g, path, err, sizeof err) < 0)
		gc_die(GC_EXIT_USAGE, "%s", err);
	snprintf(g->name, sizeof g->name, "%s", arg);
}

/* ---- the configuration of a stage --------------------------------------- */

void gc_gpu_config_load(gc_gpu_config *c, const char *name_or_file)
{
	gc_gpu g;
	char err[640];
	gc_gpu_load(&g, name_or_file);
	int rc = gc_gpu_parse_lists(c, &g, err, sizeof err);
	gc_gpu_free(&g);
	if (rc < 0)
		gc_die(GC_EXIT_USAGE, "%s", err);
}

void gc_gpu_config_option(gc_gpu_config *c, const char *opt, const char *key, const char *val)
{
	char err[640];
	if (gc_gpu_set(c, key, val, 0, err, sizeof err) < 0)
		gc_usage_error("%s: %s", opt, err);
}

void gc_gpu_config_finish(gc_gpu_config *c)
{
	char err[640];
	if (gc_gpu_finish(c, err, sizeof err) < 0)
		gc_die(GC_EXIT_USAGE, "options: %s", err);
}

/* The GPU the input header says the trace was compiled for (gc-import's
 * binary_version key), as a preset name, or NULL; *bv is the version (0:
 * none). */
static const char *header_preset(const gc_header *in, unsigned *bv)
{
	const char *v = in ? gc_header_get(in, "binary_version") : NULL;
	char *end;
	*bv = 0;
	if (!v || !*v)
		return NULL;
	unsigned long n = strtoul(v, &end, 10);
	if (*end || n == 0 || n > 1000)
		return NULL;
	*bv = (unsigned)n;
	return gc_gpu_preset_of_cc(*bv);
}

void gc_gpu_for_stream(gc_gpu_config *c, const char *gpu_opt, const gc_header *in)
{
	char err[640];
	if (gpu_opt) {
		gc_gpu_config_load(c, gpu_opt);
		/* The GPU an earlier stage ran with, when the header says. */
		const char *up = in ? gc_header_get(in, GC_GPU_HEADER_PREFIX "name") : NULL;
		if (up && *up && strcmp(up, c->name) != 0 && !gc_prog_quiet)
			gc_warn("--gpu %s differs from the GPU the input was made with (%s)", c->name, up);
	} else {
		int n = in ? gc_gpu_header_read(c, in, err, sizeof err) : 0;
		const char *named = in ? gc_header_get(in, "gpu") : NULL;
		if (n < 0)
			gc_die(GC_EXIT_DATA, "input: %s", err);
		if (n == 0 && named && *named) {
			gc_gpu_config_load(c, named);
		} else if (n == 0 && in) {
			/* Nothing upstream chose a GPU: the trace's own, if it says
			 * (gc-config(5), GPU SELECTION). */
			unsigned bv;
			const char *p = header_preset(in, &bv);
			if (p) {
				gc_gpu_config_load(c, p);
				if (!gc_prog_quiet)
					gc_warn("note: no --gpu: %s, from the trace's binary version %u "
						"(sm_%u)", p, bv, bv);
			} else {
				/* Warn about traces of a GPU only (gc-import's
				 * formats but its CSV dumps): a synthetic stream
				 * (gc-gen, gc-clone, a dump, a hand-made one)
				 * without a GPU is defined on the default GPU. */
				const char *sf = gc_header_get(in, "source_format");
				int trace = sf && (strcmp(sf, "accelsim") == 0 || strcmp(sf, "nvbit") == 0 ||
						   strcmp(sf, "ppt-gpu") == 0 || strcmp(sf, "ocelot") == 0);
				gc_gpu_defaults(c);
				if (!trace)
					;
				else if (!gc_prog_quiet && bv)
					gc_warn("no --gpu, and binary version %u has no preset: %s assumed "
						"(--list-gpus)", bv, c->name);
				else if (!gc_prog_quiet)
					gc_warn("no --gpu, and the input names no GPU: %s assumed "
						"(--list-gpus)", c->name);
			}
		} else if (n == 0) {
			gc_gpu_defaults(c);
		}
	}
	gc_gpu_begin(c);
}

void gc_gpu_config_header(const gc_gpu_config *c, const char *gpu_opt, gc_header *h)
{
	char err[640];
	if (gc_gpu_header_write(c, h, err, sizeof err) < 0)
		gc_die(GC_EXIT_DATA, "output header: %s", err);
	if (gpu_opt && gc_header_set(h, "gpu", gpu_opt) < 0)
		gc_die(GC_EXIT_DATA, "output header: cannot set key 'gpu' to '%s'", gpu_opt);
}

const char *gc_gpu_header_named(const gc_header *h)
{
	const char *v = gc_header_get(h, GC_GPU_HEADER_PREFIX "name");
	unsigned bv;
	if (!v || !*v)
		v = gc_header_get(h, "gpu");
	return v && *v ? v : header_preset(h, &bv);
}

int gc_gpu_keyopt_find(const gc_gpu_keyopt *t, size_t n, int opt)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].opt == opt)
			return (int)i;
	return -1;
}

void gc_gpu_keyopts_apply(gc_gpu_config *c, const gc_gpu_keyopt *t, size_t n,
			  const char *const *vals)
{
	for (size_t i = 0; i < n; i++)
		if (vals[i])
			gc_gpu_config_option(c, t[i].name, t[i].key, vals[i]);
}

/* ---- --op-latency --------------------------------------------------------- */

#define OPLAT "--op-latency"

/* The value of key op.<class>.<what> as `val`, checked as the key table has
 * it (range and form) in a scratch configuration; a usage error if bad. */
static unsigned oplat_value(int cls, const char *what, const char *val)
{
	gc_gpu_config tmp;
	char key[48], err[640];
	snprintf(key, sizeof key, "op.%s.%s", gc_gpu_op_name[cls], what);
	gc_gpu_defaults(&tmp);
	gc_gpu_begin(&tmp);
	if (gc_gpu_set(&tmp, key, val, 0, err, sizeof err) < 0)
		gc_usage_error(OPLAT ": %s", err);
	return strcmp(what, "latency") == 0 ? tmp.op.latency[cls] : tmp.op.initiation[cls];
}

void gc_gpu_oplat_parse(gc_gpu_oplat *o, const char *arg)
{
	char buf[96];
	const char *eq = strchr(arg, '=');
	if (!eq)
		gc_usage_error(OPLAT ": expected CLASS=LAT[,INIT], not '%s'", arg);
	size_t n = (size_t)(eq - arg);
	int cls = -1;
	for (int c = 0; c < GC_NOPS; c++)
		if (strlen(gc_gpu_op_name[c]) == n && strncmp(arg, gc_gpu_op_name[c], n) == 0)
			cls = c;
	if (cls < 0) {
		size_t at = 0;
		for (int c = 0; c < GC_NOPS; c++)
			at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s",
					       c == 0 ? "" : c == GC_NOPS - 1 ? " or " : ", ",
					       gc_gpu_op_name[c]);
		gc_usage_error(OPLAT ": unknown class '%.*s' (expected %s)", (int)n, arg, buf);
	}
	if (strlen(eq + 1) >= sizeof buf)
		gc_usage_error(OPLAT ": '%s' is too long", arg);
	strcpy(buf, eq + 1);
	char *comma = strchr(buf, ',');
	if (comma)
		*comma = 0;
	unsigned lat = oplat_value(cls, "latency", buf);
	unsigned init = comma ? oplat_value(cls, "initiation", comma + 1) : 0;
	o->given = 1;
	o->latency[cls] = lat;
	o->initiation[cls] = init;
}

static void oplat_set(gc_gpu_config *c, int cls, const char *what, unsigned v)
{
	char key[48], val[24];
	if (!v)
		return;
	snprintf(key, sizeof key, "op.%s.%s", gc_gpu_op_name[cls], what);
	snprintf(val, sizeof val, "%u", v);
	gc_gpu_config_option(c, OPLAT, key, val);
}

void gc_gpu_oplat_apply(gc_gpu_config *c, const gc_gpu_oplat *o)
{
	for (int k = 0; k < GC_NOPS; k++) {
		oplat_set(c, k, "latency", o->latency[k]);
		oplat_set(c, k, "initiation", o->initiation[k]);
	}
}
