/*
 * gpuopt.c - --gpu NAME|FILE and the GPU options of every tool: where the
 * presets are searched, and config/gpu.h's one-line messages turned into
 * exits (2 for usage, 1 for a bad input header).
 */
#include "prog/gpuopt.h"
#include "prog/prog.h"

#include <stdlib.h>
#include <string.h>
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

void gc_gpu_load(gc_gpu *g, const char *arg)
{
	char path[sizeof g->path], err[600];
	if (strchr(arg, '/') || readable(arg))
		snprintf(path, sizeof path, "%s", arg);
	else if (!find_preset(arg, path, sizeof path))
		gc_usage_error("--gpu: no preset or file named '%s' (set GC_GPU_PATH, or give a path)", arg);
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

void gc_gpu_for_stream(gc_gpu_config *c, const char *gpu_opt, const gc_header *in)
{
	char err[640];
	if (gpu_opt) {
		gc_gpu_config_load(c, gpu_opt);
	} else {
		int n = in ? gc_gpu_header_read(c, in, err, sizeof err) : 0;
		const char *named = in ? gc_header_get(in, "gpu") : NULL;
		if (n < 0)
			gc_die(GC_EXIT_DATA, "input: %s", err);
		if (n == 0 && named && *named)
			gc_gpu_config_load(c, named);
		else if (n == 0)
			gc_gpu_defaults(c);
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
