/*
 * gpu_cachestr.c - GPGPU-Sim cache strings (gc-config(5), CACHE
 * STRINGS): the -gpgpu_cache:dl1 and -gpgpu_cache:dl2 values in their three
 * grammars, read into a cache's geometry and policies and written back.
 */
#include "config/gpu.h"
#include "base/bits.h"
#include "config/gpu_impl.h"

#include <stdio.h>
#include <string.h>

static int parse_count(const char *f, unsigned *out)
{
	if (!*f)
		return -1;
	uint64_t v = 0;
	for (const char *p = f; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > 0xffffffffu)
			return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int letter(const char *f, const char *allowed, const struct genum *e, int *out)
{
	if (strlen(f) != 1 || !strchr(allowed, f[0]))
		return -1;
	for (; e->name; e++)
		if (e->alias && e->alias[0] == f[0]) {
			*out = e->value;
			return 0;
		}
	return -1;
}

int gc_gpu_cache_parse(gc_gpu_cache *out, const char *s, char *why, size_t len)
{
	char buf[256];
	char *grp[8][8];
	int nf[8] = {0}, ng = 0;
	if (strcmp(s, "none") == 0)
		return gpu_msgf(why, len, "'none' (no cache) has no geometry");
	if (strlen(s) >= sizeof buf)
		return gpu_msgf(why, len, "too long");
	strcpy(buf, s);
	/* Split into comma groups of colon fields. */
	for (char *p = buf;;) {
		if (ng == 8)
			return gpu_msgf(why, len, "too many comma groups");
		char *comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		for (char *q = p;;) {
			if (nf[ng] == 8)
				return gpu_msgf(why, len, "too many fields in group %d", ng + 1);
			char *colon = strchr(q, ':');
			if (colon)
				*colon = 0;
			if (!*q)
				return gpu_msgf(why, len, "empty field in group %d", ng + 1);
			grp[ng][nf[ng]++] = q;
			if (!colon)
				break;
			q = colon + 1;
		}
		ng++;
		if (!comma)
			break;
		p = comma + 1;
	}

	gc_gpu_cache c = *out;
	int grammar, g = 0;
	char ct = 'N';
	char **f = grp[0];
	if ((f[0][0] >= 'A' && f[0][0] <= 'Z') || (f[0][0] >= 'a' && f[0][0] <= 'z')) {
		grammar = GC_GRAMMAR_4X;
		if (nf[0] != 4)
			return gpu_msgf(why, len, "<ct>:<nset>:<line>:<assoc> has %d fields, not 4", nf[0]);
		if (strlen(f[0]) != 1 || (f[0][0] != 'N' && f[0][0] != 'S'))
			return gpu_msgf(why, len, "cache type '%s' is not N (normal) or S (sector)", f[0]);
		ct = f[0][0];
		f++;
	} else {
		if (nf[0] != 3)
			return gpu_msgf(why, len, "<nset>:<line>:<assoc> has %d fields, not 3", nf[0]);
		grammar = GC_GRAMMAR_3X;
	}
	if (parse_count(f[0], &c.sets) < 0 || !gc_is_pow2(c.sets))
		return gpu_msgf(why, len, "sets '%s' is not a power of two", f[0]);
	if (parse_count(f[1], &c.line) < 0 || !gc_is_pow2(c.line) || c.line < 4 || c.line > 4096)
		return gpu_msgf(why, len, "line '%s' is not a power of two from 4 to 4096", f[1]);
	if (parse_count(f[2], &c.ways) < 0 || c.ways < 1 || c.ways > 65536)
		return gpu_msgf(why, len, "associativity '%s' is not from 1 to 65536", f[2]);
	if (ct == 'S' && c.line != 128)
		return gpu_msgf(why, len, "sector caches (S) need 128-byte lines (4 sectors of 32 bytes)");
	c.sector = ct == 'S' ? 32 : c.line;

	if (ng < 3)
		return gpu_msgf(why, len, "too few fields (at least <geometry>,<policies>,<mshr>)");
	g = 1;
	f = grp[g];
	if (grammar == GC_GRAMMAR_3X && nf[g] == 4)
		grammar = GC_GRAMMAR_3X_NOSIF;
	else if (nf[g] != 5)
		return gpu_msgf(why, len, "<rp>:<wp>:<ap>:<wap>%s has %d fields",
				grammar == GC_GRAMMAR_4X ? ":<sif>" : "[:<sif>]", nf[g]);
	if (letter(f[0], "LF", gpu_e_repl, &c.repl) < 0)
		return gpu_msgf(why, len, "replacement '%s' is not L or F", f[0]);
	if (letter(f[1], "RBTEL", gpu_e_write, &c.write) < 0)
		return gpu_msgf(why, len, "write policy '%s' is not R, B, T, E or L", f[1]);
	if (letter(f[2], "mfs", gpu_e_alloc, &c.alloc) < 0)
		return gpu_msgf(why, len, "allocation '%s' is not m, f or s", f[2]);
	if (letter(f[3], "NWFL", gpu_e_walloc, &c.walloc) < 0)
		return gpu_msgf(why, len, "write allocation '%s' is not N, W, F or L", f[3]);
	if (grammar == GC_GRAMMAR_3X_NOSIF) {
		c.index = GC_INDEX_LINEAR;
	} else if (strcmp(f[4], "C") == 0) {
		return gpu_msgf(why, len, "set index C (custom) is not implemented (GPGPU-Sim maps "
				"everything to set 0)");
	} else if (letter(f[4], "LXHP", gpu_e_index, &c.index) < 0) {
		return gpu_msgf(why, len, "set index '%s' is not L, X, H or P", f[4]);
	}

	g = 2;
	f = grp[g];
	if (nf[g] != 3)
		return gpu_msgf(why, len, "<mshr>:<N>:<merge> has %d fields, not 3", nf[g]);
	if (strcmp(f[0], "F") == 0 || strcmp(f[0], "T") == 0)
		return gpu_msgf(why, len, "MSHR kind %s is a texture cache's; data caches use A or S", f[0]);
	if (letter(f[0], "AS", gpu_e_mshr, &c.mshr) < 0)
		return gpu_msgf(why, len, "MSHR kind '%s' is not A or S", f[0]);
	if (parse_count(f[1], &c.mshr_entries) < 0 || c.mshr_entries < 1 || c.mshr_entries > 65536)
		return gpu_msgf(why, len, "MSHR entries '%s' is not from 1 to 65536", f[1]);
	if (parse_count(f[2], &c.mshr_merge) < 0 || c.mshr_merge < 1 || c.mshr_merge > 65536)
		return gpu_msgf(why, len, "MSHR merges '%s' is not from 1 to 65536", f[2]);

	c.miss_queue = 0;
	c.port = 0;
	if (ng > 3) {
		unsigned fifo;
		f = grp[3];
		if (nf[3] > 2)
			return gpu_msgf(why, len, "<mq>[:<fifo>] has %d fields", nf[3]);
		if (parse_count(f[0], &c.miss_queue) < 0 || c.miss_queue > 65536)
			return gpu_msgf(why, len, "miss queue '%s' is not from 0 to 65536", f[0]);
		if (nf[3] == 2 && parse_count(f[1], &fifo) < 0)
			return gpu_msgf(why, len, "fifo '%s' is not a number", f[1]);
		if (ng > 4) {
			if (grammar == GC_GRAMMAR_4X && nf[3] != 2)
				return gpu_msgf(why, len, "a port width needs <mq>:<fifo> before it");
			if (nf[4] != 1 || parse_count(grp[4][0], &c.port) < 0)
				return gpu_msgf(why, len, "port '%s' is not a number", grp[4][0]);
			if (c.port && (c.port > c.line || c.line % c.port))
				return gpu_msgf(why, len, "port %u does not divide the line (%u)", c.port,
						c.line);
		}
		if (ng > 5)
			return gpu_msgf(why, len, "too many fields after the port");
	}
	c.size = (uint64_t)c.sets * c.ways * c.line;
	*out = c;
	return grammar;
}

int gc_gpu_cache_format(const gc_gpu_cache *c, char *buf, size_t len)
{
	char ct;
	if (c->sector == c->line)
		ct = 'N';
	else if (c->sector == 32 && c->line == 128)
		ct = 'S';
	else
		return -1;
	/* Random replacement and the Fibonacci set index have no letter. */
	if (c->repl == GC_REPL_RANDOM || c->index == GC_INDEX_FIBONACCI)
		return -1;
	const char *rp = gpu_e_repl[c->repl].alias, *wp = gpu_e_write[c->write].alias;
	const char *ap = gpu_e_alloc[c->alloc].alias, *wap = gpu_e_walloc[c->walloc].alias;
	const char *sif = gpu_e_index[c->index].alias, *ms = gpu_e_mshr[c->mshr].alias;
	return snprintf(buf, len, "%c:%u:%u:%u,%s:%s:%s:%s:%s,%s:%u:%u,%u:0,%u", ct, c->sets,
			c->line, c->ways, rp, wp, ap, wap, sif, ms, c->mshr_entries,
			c->mshr_merge, c->miss_queue, c->port);
}

