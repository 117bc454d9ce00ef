/* format.c - stream headers, kernel descriptions and the names of things (format.h). */
#include "stream/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gc_header_init(gc_header *h, enum gc_kind kind)
{
	memset(h, 0, sizeof *h);
	h->major = GC_STREAM_MAJOR;
	h->minor = GC_STREAM_MINOR;
	h->kind = (uint16_t)kind;
	h->record_size = GC_RECORD_BASE;
}

void gc_header_free(gc_header *h)
{
	for (int i = 0; i < h->nkv; i++) {
		free(h->key[i]);
		free(h->val[i]);
	}
	h->nkv = 0;
}

int gc_header_copy(gc_header *dst, const gc_header *src)
{
	*dst = *src;
	dst->nkv = 0;
	for (int i = 0; i < src->nkv; i++)
		if (gc_header_set(dst, src->key[i], src->val[i]) < 0) {
			gc_header_free(dst);
			return -1;
		}
	return 0;
}

const char *gc_header_get(const gc_header *h, const char *key)
{
	for (int i = 0; i < h->nkv; i++)
		if (strcmp(h->key[i], key) == 0)
			return h->val[i];
	return NULL;
}

static int key_ok(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') ||
		      (*k >= '0' && *k <= '9') || *k == '_' || *k == '.' || *k == '-'))
			return 0;
	return 1;
}

int gc_header_set(gc_header *h, const char *key, const char *val)
{
	if (!key_ok(key) || strchr(val, '\n'))
		return -1;
	char *v = strdup(val);
	if (!v)
		return -1;
	for (int i = 0; i < h->nkv; i++)
		if (strcmp(h->key[i], key) == 0) {
			free(h->val[i]);
			h->val[i] = v;
			return 0;
		}
	char *k = strdup(key);
	if (!k || h->nkv == GC_KV_MAX) {
		free(k);
		free(v);
		return -1;
	}
	h->key[h->nkv] = k;
	h->val[h->nkv] = v;
	h->nkv++;
	return 0;
}

int gc_header_add_provenance(gc_header *h, const char *entry)
{
	const char *old = gc_header_get(h, "provenance");
	if (!old || !*old)
		return gc_header_set(h, "provenance", entry);
	size_t n = strlen(old) + strlen(entry) + 4;
	char *s = malloc(n);
	if (!s)
		return -1;
	snprintf(s, n, "%s | %s", old, entry);
	int rc = gc_header_set(h, "provenance", s);
	free(s);
	return rc;
}

unsigned gc_stream_minor(uint32_t optional)
{
	return optional & GC_OPT_PREFETCH ? GC_STREAM_MINOR_PREFETCH
		: optional & GC_OPT_COMPUTE ? GC_STREAM_MINOR_COMPUTE
		: optional & GC_OPT_DISTANCE ? GC_STREAM_MINOR_DISTANCE : GC_STREAM_MINOR;
}

unsigned gc_header_minor(const gc_header *h)
{
	return h->required & GC_REQ_OPCODES ? GC_STREAM_MINOR_OPCODES
		: gc_stream_minor(h->optional);
}

unsigned gc_record_size_min(uint32_t optional)
{
	return optional & GC_OPT_COMPUTE ? GC_RECORD_COMPUTE
		: optional & GC_OPT_DISTANCE ? GC_RECORD_DISTANCE : GC_RECORD_BASE;
}

char *gc_header_text(const gc_header *h, size_t *len)
{
	size_t n = 0;
	for (int i = 0; i < h->nkv; i++)
		n += strlen(h->key[i]) + strlen(h->val[i]) + 2;
	char *s = malloc(n + 1), *p = s;
	if (!s)
		return NULL;
	for (int i = 0; i < h->nkv; i++)
		p += sprintf(p, "%s=%s\n", h->key[i], h->val[i]);
	*p = 0;
	*len = n;
	return s;
}

const char *gc_kind_name(int kind)
{
	switch (kind) {
	case GC_KIND_ACCESS: return "accesses";
	case GC_KIND_REQUEST: return "requests";
	case GC_KIND_DRAM: return "DRAM transactions";
	}
	return "unknown records";
}

/* ---- kernels ---------------------------------------------------------- */

void gc_kernel_init(gc_kernel *k, uint32_t id, const char *name)
{
	memset(k, 0, sizeof *k);
	k->id = id;
	for (int i = 0; i < 3; i++)
		k->grid[i] = k->block[i] = 1;
	if (name) {
		size_t n = strlen(name);
		if (n > GC_NAME_MAX)
			n = GC_NAME_MAX;
		memcpy(k->name, name, n);
		k->name[n] = 0;
	}
}

int gc_kernel_set_attr(gc_kernel *k, uint16_t key, uint64_t val)
{
	for (int i = 0; i < k->nattr; i++)
		if (k->attr_key[i] == key) {
			k->attr_val[i] = val;
			return 0;
		}
	if (k->nattr == GC_ATTR_MAX)
		return -1;
	k->attr_key[k->nattr] = key;
	k->attr_val[k->nattr] = val;
	k->nattr++;
	return 0;
}

int gc_kernel_get_attr(const gc_kernel *k, uint16_t key, uint64_t *val)
{
	for (int i = 0; i < k->nattr; i++)
		if (k->attr_key[i] == key) {
			*val = k->attr_val[i];
			return 1;
		}
	return 0;
}

uint64_t gc_kernel_threads_per_block(const gc_kernel *k)
{
	return (uint64_t)k->block[0] * k->block[1] * k->block[2];
}

uint64_t gc_kernel_blocks(const gc_kernel *k)
{
	return (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
}

/* ---- names ------------------------------------------------------------ */

static const char *const op_names[] = {NULL, "load", "store", "atomic"};
static const char *const space_names[] = {"global", "local", "shared",
					  "const", "texture", "generic"};
static const char *const class_names[] = {"", "compulsory", "capacity",
					  "conflict", "latency", "mshr",
					  "partial-write"};
static const char *const result_names[] = {"", "hit", "sector-miss", "miss"};

const char *gc_op_name(int op)
{
	return op >= GC_LOAD && op <= GC_ATOMIC ? op_names[op] : "?";
}

const char *gc_space_name(int space)
{
	return space >= 0 && space < GC_NSPACES ? space_names[space] : "?";
}

int gc_op_parse(const char *s)
{
	for (int i = GC_LOAD; i <= GC_ATOMIC; i++)
		if (strcmp(s, op_names[i]) == 0)
			return i;
	return -1;
}

int gc_space_parse(const char *s)
{
	for (int i = 0; i < GC_NSPACES; i++)
		if (strcmp(s, space_names[i]) == 0)
			return i;
	return -1;
}

const char *gc_class_name(int cls)
{
	return cls >= 0 && cls < GC_NCLASSES ? class_names[cls] : "?";
}

/* The JSON key of a class (gc(7) VOCABULARY): snake_case. */
const char *gc_class_key(int cls)
{
	return cls == GC_C_PARTIAL ? "partial_write" : gc_class_name(cls);
}

const char *gc_result_name(int res)
{
	return res >= 0 && res <= 3 ? result_names[res] : "?";
}

void gc_outcome_format(uint8_t o, char *buf, size_t len)
{
	int res = GC_OUT_RESULT(o), cls = GC_OUT_CLASS(o);
	if ((o & ~GC_OUT_KNOWN) || cls >= GC_NCLASSES || (res == GC_R_NONE && cls)) {
		snprintf(buf, len, "0x%02x", o);
		return;
	}
	snprintf(buf, len, "%s%s%s%s%s", result_names[res], cls ? "/" : "",
		 class_names[cls], (o & GC_OUT_WRITEBACK) ? "+wb" : "",
		 (o & GC_OUT_BYPASS) ? "+bypass" : "");
}

int gc_outcome_parse(const char *s, uint8_t *out)
{
	if (s[0] == '0' && s[1] == 'x') {
		/* One or two hex digits and nothing else (strtoul would take
		 * blanks and a sign). */
		unsigned v = 0;
		size_t n = 0;
		for (s += 2; s[n]; n++) {
			int d = s[n] >= '0' && s[n] <= '9' ? s[n] - '0'
				: s[n] >= 'a' && s[n] <= 'f' ? s[n] - 'a' + 10
				: s[n] >= 'A' && s[n] <= 'F' ? s[n] - 'A' + 10 : -1;
			if (d < 0 || n == 2)
				return -1;
			v = v << 4 | (unsigned)d;
		}
		if (n == 0)
			return -1;
		*out = (uint8_t)v;
		return 0;
	}
	unsigned o = 0;
	size_t n = strcspn(s, "/+");
	int res = -1;
	for (int i = 0; i <= 3; i++)
		if (strlen(result_names[i]) == n && strncmp(s, result_names[i], n) == 0)
			res = i;
	if (res < 0)
		return -1;
	o = (unsigned)res;
	s += n;
	if (*s == '/') {
		s++;
		n = strcspn(s, "+");
		int cls = -1;
		for (int i = 1; i < GC_NCLASSES; i++)
			if (strlen(class_names[i]) == n && strncmp(s, class_names[i], n) == 0)
				cls = i;
		if (cls < 0)
			return -1;
		o |= (unsigned)cls << 2;
		s += n;
	}
	if (strncmp(s, "+wb", 3) == 0) {
		o |= GC_OUT_WRITEBACK;
		s += 3;
	}
	if (strncmp(s, "+bypass", 7) == 0) {
		o |= GC_OUT_BYPASS;
		s += 7;
	}
	if (*s)
		return -1;
	*out = (uint8_t)o;
	return 0;
}
