/*
 * gpu_file.c - GPU configurations outside the program: files of
 * "key = value" lines (read into lists, then into a configuration over the
 * defaults), and the "gpu." keys of a stream header (gc-config(5), FILE
 * SYNTAX and STREAM HEADER).
 */
#include "config/gpu.h"
#include "config/gpu_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- files ------------------------------------------------------------ */

/* The syntax of a GPU file, without exiting (gc_gpu_load in
 * prog/gpuopt.c uses it too): "key = value" lines, '#' comments, no key
 * twice. */
int gc_gpu_read_lists(struct gc_gpu *g, const char *path, char *err, size_t len)
{
	memset(g, 0, sizeof *g);
	snprintf(g->name, sizeof g->name, "%s", path);
	snprintf(g->path, sizeof g->path, "%s", path);
	FILE *f = fopen(path, "r");
	if (!f)
		return gpu_msgf(err, len, "%s: %s", path, strerror(errno));
	char line[1024];
	int ln = 0, rc = 0;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		ln++;
		size_t l = strlen(line);
		if (l == sizeof line - 1 && line[l - 1] != '\n') {
			rc = gpu_msgf(err, len, "%s:%d: line too long", path, ln);
			break;
		}
		char *h = strchr(line, '#');
		if (h)
			*h = 0;
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		char *e = s + strlen(s);
		while (e > s && strchr(" \t\r\n", e[-1]))
			*--e = 0;
		if (!*s)
			continue;
		char *eq = strchr(s, '=');
		if (!eq) {
			rc = gpu_msgf(err, len, "%s:%d: expected 'key = value'", path, ln);
			break;
		}
		char *k = s, *ke = eq, *v = eq + 1;
		while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t'))
			ke--;
		*ke = 0;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!*k || !*v) {
			rc = gpu_msgf(err, len, "%s:%d: expected 'key = value'", path, ln);
			break;
		}
		for (int i = 0; i < g->n && rc == 0; i++)
			if (strcmp(g->key[i], k) == 0)
				rc = gpu_msgf(err, len, "%s:%d: '%s' already set on line %d", path, ln, k,
					      g->line[i]);
		if (rc)
			break;
		if (g->n == 256) {
			rc = gpu_msgf(err, len, "%s:%d: too many keys", path, ln);
			break;
		}
		g->key[g->n] = strdup(k);
		g->val[g->n] = strdup(v);
		g->line[g->n] = ln;
		if (!g->key[g->n] || !g->val[g->n]) {
			free(g->key[g->n]);
			free(g->val[g->n]);
			rc = gpu_msgf(err, len, "out of memory");
			break;
		}
		g->n++;
	}
	if (rc == 0 && ferror(f))
		rc = gpu_msgf(err, len, "%s: read error", path);
	fclose(f);
	if (rc)
		gc_gpu_free(g);
	return rc;
}

int gc_gpu_parse_lists(gc_gpu_config *c, const struct gc_gpu *g, char *err, size_t len)
{
	char msg[512];
	gc_gpu_defaults(c);
	gc_gpu_begin(c);
	for (int i = 0; i < g->n; i++)
		if (gc_gpu_set(c, g->key[i], g->val[i], g->line[i], msg, sizeof msg) < 0)
			return gpu_msgf(err, len, "%s:%d: %s", g->path, g->line[i], msg);
	/* A file without a name is named after itself, not after the defaults. */
	if (!c->given[KEY_NAME]) {
		const char *base = strrchr(g->path, '/');
		base = base ? base + 1 : g->path;
		size_t n = strcspn(base, ".");
		snprintf(c->name, sizeof c->name, "custom");
		if (n && n < sizeof c->name &&
		    strspn(base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") >= n)
			snprintf(c->name, sizeof c->name, "%.*s", (int)n, base);
	}
	if (!c->given[KEY_DESCRIPTION])
		snprintf(c->description, sizeof c->description, "%s over the %s defaults", c->name,
			 "fermi-gtx470-16k");
	if (gc_gpu_finish(c, msg, sizeof msg) < 0) {
		if (c->err_line > 0)
			return gpu_msgf(err, len, "%s:%d: %s", g->path, c->err_line, msg);
		return gpu_msgf(err, len, "%s: %s", g->path, msg);
	}
	return 0;
}

int gc_gpu_parse_file(gc_gpu_config *c, const char *path, char *err, size_t len)
{
	gc_gpu g;
	if (gc_gpu_read_lists(&g, path, err, len) < 0)
		return -1;
	int rc = gc_gpu_parse_lists(c, &g, err, len);
	gc_gpu_free(&g);
	return rc;
}

/* ---- the stream header ------------------------------------------------ */

int gc_gpu_header_write(const gc_gpu_config *c, gc_header *h, char *err, size_t len)
{
	char hk[128], val[512];
	int need = 0, all = 0;
	for (int k = 0; k < NKEYS; k++) {
		if (gpu_keys[k].flags & F_PSEUDO)
			continue;
		all++;
		snprintf(hk, sizeof hk, GC_GPU_HEADER_PREFIX "%s", gpu_keys[k].name);
		if (!gc_header_get(h, hk))
			need++;
	}
	if (h->nkv + need > GC_KV_MAX)
		return gpu_msgf(err, len, "stream header full: the GPU configuration needs %d keys, "
				"%d of the header's %d are in use (GC_KV_MAX)", all, h->nkv, GC_KV_MAX);
	for (int k = 0; k < NKEYS; k++) {
		if (gpu_keys[k].flags & F_PSEUDO)
			continue;
		snprintf(hk, sizeof hk, GC_GPU_HEADER_PREFIX "%s", gpu_keys[k].name);
		gc_gpu_format(c, k, val, sizeof val);
		if (gc_header_set(h, hk, val) < 0)
			return gpu_msgf(err, len, "cannot set header key '%s'", hk);
	}
	return 0;
}

int gc_gpu_header_read(gc_gpu_config *c, const gc_header *h, char *err, size_t len)
{
	char msg[512];
	size_t pl = strlen(GC_GPU_HEADER_PREFIX);
	int n = 0;
	gc_gpu_defaults(c);
	gc_gpu_begin(c);
	for (int i = 0; i < h->nkv; i++) {
		if (strncmp(h->key[i], GC_GPU_HEADER_PREFIX, pl) != 0)
			continue;
		n++;
		if (gc_gpu_set(c, h->key[i] + pl, h->val[i], 0, msg, sizeof msg) < 0)
			return gpu_msgf(err, len, "stream header key '%s': %s", h->key[i], msg);
	}
	if (n && gc_gpu_finish(c, msg, sizeof msg) < 0)
		return gpu_msgf(err, len, "GPU configuration in the stream header: %s", msg);
	return n;
}

/* ---- the lists of a file ---------------------------------------------- */

const char *gc_gpu_get(const gc_gpu *g, const char *key)
{
	for (int i = 0; i < g->n; i++)
		if (strcmp(g->key[i], key) == 0)
			return g->val[i];
	return NULL;
}

void gc_gpu_free(gc_gpu *g)
{
	for (int i = 0; i < g->n; i++) {
		free(g->key[i]);
		free(g->val[i]);
	}
	g->n = 0;
}
