/*
 * csv.c - gc-import --format csv: the lossless restore of a gc-stats dump
 * (stream/dump.h, whose columns it shares with the writer).  It checks
 * every column, so a hand-edited dump fails with the line and the column,
 * and it checks the counts on the kend and end lines, so a dump cut short
 * is an error and not a smaller stream.
 */
#include "import/formats.h"
#include "import/import.h"
#include "stream/dump.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define LOW32 UINT64_C(0xffffffff)

int gc_csv_probe(const char *head, size_t len, const char *path)
{
	(void)path;
	static const char m[] = "# gc-stats dump ";
	return len >= sizeof m - 1 && memcmp(head, m, sizeof m - 1) == 0 ? 100 : 0;
}

enum stage { S_MAGIC, S_HEADER, S_ROWS, S_ENDED };

struct restore {
	gc_import *im;
	gc_lines *in;
	const char *file;
	uint64_t line;          /* first line of the row being read */
	enum stage stage;
	gc_header h;            /* built from the comment lines */
	int have_kind;
	int kind;
	char *join;             /* a row whose quoted field spans lines */
	size_t joincap;
	char *f[GC_CSV_NCOLUMNS];
	int in_kernel;
	uint32_t kid;
	uint64_t kdata;
	uint64_t kbad;          /* lines skipped (--lenient) before the kernel */
	uint64_t data, records; /* what the stream's end record will say */
	uint64_t time_hi, last_time;
};

static void bad(struct restore *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A malformed line: fatal unless --lenient, when the caller skips it. */
static void bad(struct restore *s, const char *fmt, ...)
{
	char msg[480];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	gc_import_bad_at(s->im, s->file, s->line ? s->line : 1, "%s", msg);
}

/* Decimal, or hex after 0x; the whole string. */
static int parse_u64(const char *t, uint64_t *v)
{
	uint64_t x = 0;
	const char *p = t;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		const char *e;
		if (!gc_parse_hex(p, &e, &x) || *e)
			return -1;
		*v = x;
		return 0;
	}
	if (!*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* Column c as a number up to max; -1 after reporting it. */
static int num(struct restore *s, int c, uint64_t max, uint64_t *v)
{
	if (parse_u64(s->f[c], v) < 0 || *v > max) {
		bad(s, "column %s: '%.40s' is not a number from 0 to %llu", gc_csv_colname[c],
		    s->f[c], (unsigned long long)max);
		return -1;
	}
	return 0;
}

/* A column the record kind cannot hold: empty (or 0). */
static int unused(struct restore *s, int c, const char *where)
{
	if (s->f[c][0] && strcmp(s->f[c], "0") != 0) {
		bad(s, "column %s: must be empty %s (found '%.40s')", gc_csv_colname[c], where, s->f[c]);
		return -1;
	}
	return 0;
}

/* Do the bytes [p, p+n) end inside a quoted field? */
static int open_quote(const char *p, size_t n)
{
	int at_start = 1, inq = 0;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (inq) {
			if (c == '"') {
				if (i + 1 < n && p[i + 1] == '"')
					i++;
				else
					inq = 0;
			}
		} else if (c == ',') {
			at_start = 1;
			continue;
		} else if (c == '"' && at_start) {
			inq = 1;
		}
		at_start = 0;
	}
	return inq;
}

/* Split a complete row in place into s->f; the number of fields, or -1
 * after reporting a quoting error. */
static int split(struct restore *s, char *p)
{
	int n = 0;
	for (;;) {
		char *start = p, c;
		if (*p == '"') {
			char *w = p++;
			for (;;) {
				if (!*p) {
					bad(s, "column %s: unterminated quoted field",
					    n < GC_CSV_NCOLUMNS ? gc_csv_colname[n] : "beyond info");
					return -1;
				}
				if (*p == '"') {
					if (p[1] != '"')
						break;
					p++;
				}
				*w++ = *p++;
			}
			p++;
			c = *p;
			*w = 0;
			if (c && c != ',') {
				bad(s, "column %s: text after the closing quote",
				    n < GC_CSV_NCOLUMNS ? gc_csv_colname[n] : "beyond info");
				return -1;
			}
		} else {
			while (*p && *p != ',' && *p != '"') /* fields are short: no strcspn */
				p++;
			c = *p;
			*p = 0;
			if (c == '"') {
				bad(s, "column %s: a quote inside an unquoted field",
				    n < GC_CSV_NCOLUMNS ? gc_csv_colname[n] : "beyond info");
				return -1;
			}
		}
		if (n < GC_CSV_NCOLUMNS)
			s->f[n] = start;
		n++;
		if (!c)
			return n;
		p++;
	}
}

/* ---- the header ------------------------------------------------------- */

/* The value after "# word ", or NULL when l is another line. */
static const char *directive(const char *l, const char *word)
{
	size_t n = strlen(word);
	if (l[0] != '#' || l[1] != ' ' || strncmp(l + 2, word, n) != 0 || l[2 + n] != ' ')
		return NULL;
	return l + 3 + n;
}

static void header_line(struct restore *s, const char *l)
{
	const char *v;
	uint64_t x;
#define IS(word) ((v = directive(l, word)) != NULL)
	if (IS("kind")) {
		for (int k = GC_KIND_ACCESS; k <= GC_KIND_DRAM; k++)
			if (strcmp(v, gc_csv_kind_tokens[k]) == 0) {
				s->kind = k;
				s->have_kind = 1;
				return;
			}
		bad(s, "header: kind '%.40s' is not accesses, requests or dram", v);
	} else if (IS("version")) {
		const char *dot = strchr(v, '.');
		char major[24];
		size_t ml = dot ? (size_t)(dot - v) : 0;
		if (!dot || ml >= sizeof major) {
			bad(s, "header: version '%.40s' is not MAJOR.MINOR", v);
			return;
		}
		memcpy(major, v, ml);
		major[ml] = 0;
		if (parse_u64(major, &x) < 0 || x != GC_STREAM_MAJOR) {
			bad(s, "header: stream version %.40s (this restores %d.x)", v, GC_STREAM_MAJOR);
			return;
		}
		if (parse_u64(dot + 1, &x) < 0 || x > UINT16_MAX) {
			bad(s, "header: version '%.40s' is not MAJOR.MINOR", v);
			return;
		}
		s->h.minor = (uint16_t)x;
	} else if (IS("record_size")) {
		if (parse_u64(v, &x) < 0 || x < GC_RECORD_BASE || x > GC_RECORD_MAX || x % 8) {
			bad(s, "header: record_size '%.40s' is not a multiple of 8 from %u to %u", v,
			    GC_RECORD_BASE, GC_RECORD_MAX);
			return;
		}
		s->h.record_size = (uint16_t)x;
	} else if (IS("required") || IS("optional")) {
		int req = l[2] == 'r';
		if (parse_u64(v, &x) < 0 || x > UINT32_MAX) {
			bad(s, "header: %s flags '%.40s' are not a 32-bit number",
			    req ? "required" : "optional", v);
			return;
		}
		*(req ? &s->h.required : &s->h.optional) = (uint32_t)x;
	} else if (IS("header")) {
		const char *eq = strchr(v, '=');
		char key[256];
		size_t kl = eq ? (size_t)(eq - v) : 0;
		if (!eq || kl >= sizeof key) {
			bad(s, "header: '%.40s' is not KEY=VALUE", v);
			return;
		}
		memcpy(key, v, kl);
		key[kl] = 0;
		if (gc_header_get(&s->h, key)) {
			bad(s, "header: key '%s' repeated", key);
			return;
		}
		if (gc_header_set(&s->h, key, eq + 1) < 0)
			bad(s, "header: bad key '%s' (letters, digits, _ . - only; at most %d keys)",
			    key, GC_KV_MAX);
	} else {
		bad(s, "header: unknown line '%.40s' (expected kind, version, record_size, "
		    "required, optional or header)", l);
	}
#undef IS
}

/* The column row ends the header: it becomes the output's header,
 * replacing the one gc-import began (a restore adds no provenance). */
static void apply_header(struct restore *s)
{
	if (!s->have_kind)
		bad(s, "header: no '# kind' line before the column row");
	/* What the writer would refuse as a bug is the dump's error. */
	if (s->h.record_size < gc_record_size_min(s->h.optional)) {
		bad(s, "header: record_size %u is too small for the %s flag (%u bytes at least)",
		    s->h.record_size, s->h.optional & GC_OPT_COMPUTE ? "compute" : "distance",
		    gc_record_size_min(s->h.optional));
		s->h.record_size = (uint16_t)gc_record_size_min(s->h.optional); /* --lenient */
	}
	s->h.kind = (uint16_t)s->kind;
	gc_header_free(&s->im->h);
	s->im->h = s->h;
	s->h.nkv = 0;
	s->stage = S_ROWS;
}

/* ---- rows --------------------------------------------------------------- */

/* Columns that must be empty on a control line: all but keep[]. */
static int only(struct restore *s, const char *what, unsigned keep)
{
	for (int c = 0; c < GC_CSV_NCOLUMNS; c++)
		if (!(keep >> c & 1) && s->f[c][0]) {
			bad(s, "column %s: must be empty on a%s %s line (found '%.40s')", gc_csv_colname[c],
			    what[0] == 'e' ? "n" : "", what, s->f[c]);
			return -1;
		}
	return 0;
}

/* A compute count item: NAME=N below 2^bits. */
static int count_item(struct restore *s, const char *name, const char *val, unsigned bits,
		      uint64_t *v)
{
	uint64_t max = (UINT64_C(1) << bits) - 1;
	if (parse_u64(val, v) < 0 || *v > max) {
		bad(s, "column info: %s=%.40s is not a number from 0 to %llu", name, val,
		    (unsigned long long)max);
		return -1;
	}
	return 0;
}

/*
 * The info column of a data line, space-separated items: a distance
 * stream's dist=N|inf|none, a compute stream's insts=N cycles=N waits=N
 * (the field with its valid bit) or compute=none|N (any value: 0, or one
 * a count cannot say); nothing else.  0, or -1 after reporting.
 */
static int data_info(struct restore *s, gc_rec *r)
{
	int dist = (s->h.optional & GC_OPT_DISTANCE) != 0;
	int comp = (s->h.optional & GC_OPT_COMPUTE) != 0;
	char *info = s->f[GC_CSV_INFO], found[48];
	if (!dist && !comp) {
		if (s->f[GC_CSV_NAME][0] || info[0]) {
			int c = s->f[GC_CSV_NAME][0] ? GC_CSV_NAME : GC_CSV_INFO;
			bad(s, "column %s: must be empty on a data line (found '%.40s')",
			    gc_csv_colname[c], s->f[c]);
			return -1;
		}
		return 0;
	}
	if (s->f[GC_CSV_NAME][0]) {
		bad(s, "column name: must be empty on a data line (found '%.40s')", s->f[GC_CSV_NAME]);
		return -1;
	}
	snprintf(found, sizeof found, "%.40s", info);
	/* seen: bit 0 dist, 1 insts, 2 cycles, 3 waits, 4 compute */
	unsigned seen = 0;
	uint64_t cnt[3] = {0, 0, 0}, whole = 0;
	static const char *const names[5] = {"dist", "insts", "cycles", "waits", "compute"};
	static const unsigned bits[3] = {GC_CF_INSTS_BITS, GC_CF_CYCLES_BITS, GC_CF_WAITS_BITS};
	for (char *save = NULL, *t = strtok_r(info, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		int i = 5;
		if (eq) {
			*eq = 0;
			for (i = 0; i < 5 && strcmp(t, names[i]) != 0; i++)
				;
		}
		if (i == 5 || (i == 0 && !dist) || (i > 0 && !comp)) {
			if (eq)
				*eq = '=';
			bad(s, "column info: '%.40s' is not an item of this stream's data lines (%s)", t,
			    dist && comp ? "dist, insts, cycles, waits or compute"
			    : dist ? "dist" : "insts, cycles, waits or compute");
			return -1;
		}
		if (seen >> i & 1) {
			bad(s, "column info: %s= repeated", t);
			return -1;
		}
		seen |= 1u << i;
		const char *v = eq + 1;
		if (i == 0) {
			/* dist=N, dist=inf or dist=none: the reuse distance. */
			char *end;
			if (strcmp(v, "inf") == 0) {
				r->dist = GC_DIST_INF;
			} else if (strcmp(v, "none") == 0) {
				r->dist = GC_DIST_NONE;
			} else {
				errno = 0;
				unsigned long long x = strtoull(v, &end, 10);
				if (*v < '0' || *v > '9' || *end || errno || x >= GC_DIST_NONE) {
					bad(s, "column info: '%.40s' is not a distance (a number, inf "
					    "or none)", v);
					return -1;
				}
				r->dist = x;
			}
		} else if (i < 4) {
			if (count_item(s, t, v, bits[i - 1], &cnt[i - 1]) < 0)
				return -1;
		} else if (strcmp(v, "none") != 0 && parse_u64(v, &whole) < 0) {
			bad(s, "column info: compute=%.40s is not none or a 64-bit number", v);
			return -1;
		}
	}
	if (dist && !(seen & 1)) {
		bad(s, "column info: a distance stream's data line needs dist=N, dist=inf "
		    "or dist=none (found '%s')", found);
		return -1;
	}
	unsigned c = seen >> 1;
	if (comp && c != 7 && c != 8) {
		bad(s, "column info: a compute stream's data line needs insts=N cycles=N waits=N, "
		    "or compute=none (found '%s')", found);
		return -1;
	}
	if (comp)
		r->compute = c == 7 ? GC_CF_MAKE(cnt[0], cnt[1], cnt[2]) : whole;
	return 0;
}

static void data_row(struct restore *s, int op)
{
	gc_rec r;
	uint64_t v;
	int acc = s->kind == GC_KIND_ACCESS;
	const char *where = acc ? "in an access stream" : "in a request or DRAM stream";

	memset(&r, 0, sizeof r);
	r.op = (uint8_t)op;
	if (!s->in_kernel) {
		bad(s, "a data line outside a kernel (no kbegin line before it)");
		return;
	}
	if (num(s, GC_CSV_KERNEL, UINT32_MAX, &v))
		return;
	if (v != s->kid) {
		bad(s, "column kernel: %llu, but the open kernel is %u", (unsigned long long)v, s->kid);
		return;
	}
	r.kernel = (uint32_t)v;
	if (num(s, GC_CSV_SM, UINT16_MAX, &v))
		return;
	r.sm = (uint16_t)v;
	if (num(s, GC_CSV_BLOCK, UINT32_MAX, &v))
		return;
	r.block = (uint32_t)v;
	if (num(s, GC_CSV_WARP, UINT16_MAX, &v))
		return;
	r.warp = (uint16_t)v;
	if (acc) {
		if (num(s, GC_CSV_LANE, UINT8_MAX, &v))
			return;
		r.lane = (uint8_t)v;
	} else if (unused(s, GC_CSV_LANE, where)) {
		return;
	}
	if (num(s, GC_CSV_PC, UINT32_MAX, &v))
		return;
	r.pc = (uint32_t)v;
	if (num(s, GC_CSV_SEQ, UINT32_MAX, &v))
		return;
	r.seq = (uint32_t)v;
	int space = gc_space_parse(s->f[GC_CSV_SPACE]);
	if (space < 0) {
		bad(s, "column space: unknown memory space '%.40s' (global, local, shared, "
		    "const, texture or generic)", s->f[GC_CSV_SPACE]);
		return;
	}
	r.space = (uint8_t)space;
	if (num(s, GC_CSV_ADDR, acc ? UINT64_MAX : GC_ADDR48_MAX, &v))
		return;
	r.addr = v;
	if (num(s, GC_CSV_SIZE, acc ? UINT8_MAX : UINT16_MAX, &v))
		return;
	if (acc && v == 0) {
		bad(s, "column size: an access has 1 to 255 bytes, not 0");
		return;
	}
	r.size = (uint16_t)v;
	if (acc) {
		if (unused(s, GC_CSV_MASK, where) || unused(s, GC_CSV_OUTCOME, where))
			return;
	} else {
		if (num(s, GC_CSV_MASK, UINT8_MAX, &v))
			return;
		r.mask = (uint8_t)v;
	}
	if (num(s, GC_CSV_TIME, UINT64_MAX, &v))
		return;
	if (v < s->last_time) {
		bad(s, "column time: %llu is earlier than the previous record's %llu",
		    (unsigned long long)v, (unsigned long long)s->last_time);
		return;
	}
	r.time = v;
	if (!acc && gc_outcome_parse(s->f[GC_CSV_OUTCOME], &r.outcome) < 0) {
		bad(s, "column outcome: '%.40s' is not an outcome (like hit, miss/capacity+wb "
		    "or 0x2d)", s->f[GC_CSV_OUTCOME]);
		return;
	}
	if (num(s, GC_CSV_FLAGS, 15, &v))
		return;
	r.flags = (uint8_t)v;
	if (data_info(s, &r) < 0)
		return;
	gc_import_access(s->im, &r);
	s->last_time = r.time;
	if ((r.time & ~LOW32) != s->time_hi) {
		s->time_hi = r.time & ~LOW32;
		s->records++; /* the writer's time-base record */
	}
	s->records++;
	s->data++;
	s->kdata++;
}

/* "AxBxC" with the limits of the grid or block dimensions. */
static int dims(const char *v, const uint64_t max[3], uint64_t out[3])
{
	char t[64];
	if (strlen(v) >= sizeof t)
		return -1;
	strcpy(t, v);
	char *p = t;
	for (int i = 0; i < 3; i++) {
		char *x = strchr(p, 'x');
		if ((i < 2) != (x != NULL))
			return -1;
		if (x)
			*x = 0;
		if (parse_u64(p, &out[i]) < 0 || out[i] > max[i])
			return -1;
		if (x) /* the last has none: x + 1 would be NULL + 1 */
			p = x + 1;
	}
	return 0;
}

static int kernel_info(struct restore *s, gc_kernel *k, char *info)
{
	static const uint64_t gmax[3] = {UINT32_MAX, UINT16_MAX, UINT16_MAX};
	static const uint64_t bmax[3] = {UINT16_MAX, UINT16_MAX, UINT16_MAX};
	uint64_t d[3], v;
	for (char *save = NULL, *t = strtok_r(info, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '=');
		if (!eq) {
			bad(s, "column info: '%.40s' is not NAME=VALUE", t);
			return -1;
		}
		*eq = 0;
		const char *val = eq + 1;
		if (strcmp(t, "grid") == 0 || strcmp(t, "block") == 0) {
			int grid = t[0] == 'g';
			if (dims(val, grid ? gmax : bmax, d) < 0) {
				bad(s, "column info: %s=%.40s is not XxYxZ (x up to %s, y and z up to 65535)",
				    t, val, grid ? "4294967295" : "65535");
				return -1;
			}
			for (int i = 0; i < 3; i++) {
				if (grid)
					k->grid[i] = (uint32_t)d[i];
				else
					k->block[i] = (uint16_t)d[i];
			}
			continue;
		}
		int regs = strcmp(t, "regs") == 0, shmem = strcmp(t, "shmem") == 0;
		uint64_t max = regs ? UINT16_MAX : shmem ? UINT32_MAX : UINT64_MAX;
		if (parse_u64(val, &v) < 0 || v > max) {
			bad(s, "column info: %s=%.40s is not a number from 0 to %llu", t, val,
			    (unsigned long long)max);
			return -1;
		}
		if (regs) {
			k->regs = (uint16_t)v;
			continue;
		}
		if (shmem) {
			k->shmem = (uint32_t)v;
			continue;
		}
		uint64_t key = 0;
		for (size_t i = 1; i < GC_CSV_NATTR_NAMES; i++)
			if (strcmp(t, gc_csv_attr_names[i]) == 0)
				key = i;
		if (!key && (strncmp(t, "attr.", 5) != 0 || parse_u64(t + 5, &key) < 0 ||
			     key > UINT16_MAX)) {
			bad(s, "column info: unknown item '%.40s' (grid, block, regs, shmem, an "
			    "attribute name or attr.N)", t);
			return -1;
		}
		if (k->nattr == GC_ATTR_MAX) {
			bad(s, "column info: more than %d kernel attributes", GC_ATTR_MAX);
			return -1;
		}
		/* Kept in order, repeats too: the restore is exact. */
		k->attr_key[k->nattr] = (uint16_t)key;
		k->attr_val[k->nattr] = v;
		k->nattr++;
	}
	return 0;
}

static void kbegin_row(struct restore *s)
{
	static gc_kernel k; /* 4 KiB of name: not on the stack */
	uint64_t id;
	if (only(s, "kbegin", 1u << GC_CSV_KERNEL | 1u << GC_CSV_OP | 1u << GC_CSV_NAME | 1u << GC_CSV_INFO) ||
	    num(s, GC_CSV_KERNEL, UINT32_MAX, &id))
		return;
	if (s->in_kernel) {
		bad(s, "kbegin for kernel %llu, but kernel %u has no kend line",
		    (unsigned long long)id, s->kid);
		return;
	}
	size_t nl = strlen(s->f[GC_CSV_NAME]);
	if (nl > GC_NAME_MAX) {
		bad(s, "column name: %zu bytes, longer than %d", nl, GC_NAME_MAX);
		return;
	}
	gc_kernel_init(&k, (uint32_t)id, s->f[GC_CSV_NAME]);
	if (kernel_info(s, &k, s->f[GC_CSV_INFO]) < 0)
		return;
	gc_import_kbegin(s->im, &k);
	s->in_kernel = 1;
	s->kid = k.id;
	s->kdata = 0;
	s->kbad = s->im->bad_lines;
	s->records += 1 + (uint64_t)k.nattr + (nl + GC_NAME_CHUNK - 1) / GC_NAME_CHUNK;
}

/* "records=N" or "records=N data=M" in the info column. */
static int counts(struct restore *s, int with_data, uint64_t *n, uint64_t *d)
{
	const char *t = s->f[GC_CSV_INFO];
	char a[32], b[32], extra;
	int ok = with_data ? sscanf(t, "records=%31[0-9x] data=%31[0-9x]%c", a, b, &extra) == 2
			   : sscanf(t, "records=%31[0-9x]%c", a, &extra) == 1;
	if (!ok || parse_u64(a, n) < 0 || (with_data && parse_u64(b, d) < 0)) {
		bad(s, "column info: '%.40s' is not %s", t, with_data ? "records=N data=N" : "records=N");
		return -1;
	}
	return 0;
}

static void kend_row(struct restore *s)
{
	uint64_t id, n;
	if (only(s, "kend", 1u << GC_CSV_KERNEL | 1u << GC_CSV_OP | 1u << GC_CSV_INFO) ||
	    num(s, GC_CSV_KERNEL, UINT32_MAX, &id))
		return;
	if (!s->in_kernel) {
		bad(s, "kend for kernel %llu, but no kernel is open", (unsigned long long)id);
		return;
	}
	if (id != s->kid) {
		bad(s, "kend for kernel %llu, but kernel %u is open", (unsigned long long)id, s->kid);
		return;
	}
	/* The kernel ends even when its count is bad (--lenient); once lines
	 * of it were skipped the count cannot agree, and is not checked. */
	if (counts(s, 0, &n, NULL) == 0 && n != s->kdata && s->im->bad_lines == s->kbad)
		bad(s, "column info: kernel %u ends with records=%llu, but the dump holds %llu "
		    "data lines for it (lines lost or added?)", s->kid, (unsigned long long)n,
		    (unsigned long long)s->kdata);
	gc_import_kend(s->im);
	s->in_kernel = 0;
	s->records++;
}

static void opcode_row(struct restore *s)
{
	uint64_t id, pc;
	if (only(s, "opcode", 1u << GC_CSV_KERNEL | 1u << GC_CSV_PC | 1u << GC_CSV_OP |
		 1u << GC_CSV_NAME) ||
	    num(s, GC_CSV_KERNEL, UINT32_MAX, &id) || num(s, GC_CSV_PC, UINT32_MAX, &pc))
		return;
	if (!s->in_kernel || id != s->kid) {
		bad(s, "opcode line for kernel %llu, but %s", (unsigned long long)id,
		    s->in_kernel ? "another kernel is open" : "no kernel is open");
		return;
	}
	if (!(s->im->h.required & GC_REQ_OPCODES)) {
		bad(s, "an opcode line, but the header's required flags lack 0x%x (opcodes)",
		    GC_REQ_OPCODES);
		return;
	}
	const char *name = s->f[GC_CSV_NAME];
	size_t n = strlen(name);
	const gc_optab *t = &s->im->ops;
	if (n == 0 || n > GC_OPCODE_MAX) {
		bad(s, "column name: an opcode of %zu bytes (1 to %d)", n, GC_OPCODE_MAX);
		return;
	}
	if (t->n && pc <= t->e[t->n - 1].pc) {
		bad(s, "column pc: 0x%llx after 0x%x (a kernel's opcode lines increase by PC)",
		    (unsigned long long)pc, t->e[t->n - 1].pc);
		return;
	}
	gc_import_opcode(s->im, (uint32_t)pc, name, n);
	s->records += n > GC_OPCODE_FIRST ? 2 : 1;
}

static void end_row(struct restore *s)
{
	uint64_t n, d;
	if (only(s, "end", 1u << GC_CSV_OP | 1u << GC_CSV_INFO))
		return;
	if (s->in_kernel) {
		bad(s, "end line inside kernel %u (its kend line is missing)", s->kid);
		gc_import_kend(s->im);
		s->in_kernel = 0;
		s->records++;
	}
	if (counts(s, 1, &n, &d) == 0 && (n != s->records || d != s->data) && !s->im->bad_lines)
		bad(s, "column info: the end line says records=%llu data=%llu, but the dump holds "
		    "%llu records (%llu data; lines lost or added?)", (unsigned long long)n,
		    (unsigned long long)d, (unsigned long long)s->records,
		    (unsigned long long)s->data);
	s->stage = S_ENDED;
}

static void row(struct restore *s, char *text)
{
	int n = split(s, text);
	if (n < 0)
		return;
	if (n != GC_CSV_NCOLUMNS) {
		bad(s, "%d fields, expected %d (%s)", n, GC_CSV_NCOLUMNS, GC_CSV_COLUMNS);
		return;
	}
	if (s->stage == S_ENDED) {
		bad(s, "a line after the end line");
		return;
	}
	const char *op = s->f[GC_CSV_OP];
	int o = gc_op_parse(op);
	if (o > 0)
		data_row(s, o);
	else if (strcmp(op, "kbegin") == 0)
		kbegin_row(s);
	else if (strcmp(op, "kend") == 0)
		kend_row(s);
	else if (strcmp(op, "opcode") == 0)
		opcode_row(s);
	else if (strcmp(op, "end") == 0)
		end_row(s);
	else
		bad(s, "column op: unknown operation '%.40s' (load, store, atomic, kbegin, "
		    "opcode, kend or end)", op);
}

/* Append a line (and the newline the line reader took) to the join
 * buffer; -1 when out of memory. */
static int join_add(struct restore *s, size_t used, const char *l, size_t n, int nl)
{
	size_t need = used + n + 2;
	if (need > s->joincap) {
		size_t cap = s->joincap ? s->joincap : 4096;
		while (cap < need)
			cap *= 2;
		char *j = realloc(s->join, cap);
		if (!j)
			return -1;
		s->join = j;
		s->joincap = cap;
	}
	memcpy(s->join + used, l, n);
	if (nl)
		s->join[used + n++] = '\n';
	s->join[used + n] = 0;
	return 0;
}

static void line(struct restore *s, char *l, size_t n)
{
	switch (s->stage) {
	case S_MAGIC:
		s->stage = S_HEADER;
		if (strcmp(l, GC_CSV_MAGIC) == 0)
			return;
		if (strncmp(l, "# gc-stats dump ", 16) == 0) {
			bad(s, "dump format %.20s is not supported (this reads %s)", l + 16,
			    &GC_CSV_MAGIC[16]);
			return;
		}
		bad(s, "not a gc-stats dump: the first line must be '%s'", GC_CSV_MAGIC);
		break; /* with --lenient, read the line as what follows */
	case S_HEADER:
		break;
	case S_ROWS:
	case S_ENDED:
		if (l[0] == '#' || n == 0)
			return; /* comments and blank lines */
		row(s, l);
		return;
	}
	if (l[0] == '#') {
		header_line(s, l);
		return;
	}
	if (strcmp(l, GC_CSV_COLUMNS) != 0) {
		bad(s, "expected the column row '%s'", GC_CSV_COLUMNS);
		apply_header(s);
		if (n)
			row(s, l); /* --lenient: perhaps the first record */
		return;
	}
	apply_header(s);
}

int gc_csv_import(gc_import *im, gc_lines *in)
{
	struct restore s;
	char *l;
	long n;

	if (im->w || im->kernels) {
		char msg[400];
		snprintf(msg, sizeof msg, "%s: a gc-stats dump restores a whole stream; "
			 "it must be the only input", gc_lines_name(in));
		im->fatal(im, msg);
		return 0;
	}
	im->restore = 1;
	memset(&s, 0, sizeof s);
	s.im = im;
	s.in = in;
	s.file = gc_lines_name(in);
	s.kind = GC_KIND_ACCESS;
	gc_header_init(&s.h, GC_KIND_ACCESS);
	while ((n = gc_lines_next(in, &l)) >= 0) {
		s.line = gc_lines_number(in);
		if (strlen(l) != (size_t)n) {
			bad(&s, "a NUL byte in the line");
			continue;
		}
		if (s.stage < S_ROWS || !memchr(l, '"', (size_t)n) || !open_quote(l, (size_t)n)) {
			line(&s, l, (size_t)n);
			continue;
		}
		/* A quoted field goes on past the line break: join the lines. */
		size_t used = 0;
		int more = 1;
		if (join_add(&s, 0, l, (size_t)n, 1) < 0)
			im->fatal(im, "out of memory");
		used = (size_t)n + 1;
		while (more) {
			if ((n = gc_lines_next(in, &l)) < 0) {
				s.join[used - 1] = 0; /* no line break after the last line */
				break;
			}
			if (strlen(l) != (size_t)n) {
				bad(&s, "a NUL byte in line %llu",
				    (unsigned long long)gc_lines_number(in));
				l[0] = 0;
				n = 0;
			}
			if (join_add(&s, used, l, (size_t)n, 1) < 0)
				im->fatal(im, "out of memory");
			used += (size_t)n + 1;
			more = open_quote(s.join, used - 1);
			if (!more)
				s.join[used - 1] = 0;
		}
		line(&s, s.join, strlen(s.join));
		if (n == -2)
			break;
	}
	if (n == -2) {
		free(s.join);
		gc_header_free(&s.h);
		return 0; /* gc-import reports the read error */
	}
	s.line = gc_lines_number(in);
	if (s.stage < S_ROWS) {
		bad(&s, "truncated dump: no column row");
		apply_header(&s);
	}
	if (s.in_kernel) {
		bad(&s, "truncated dump: kernel %u has no kend line", s.kid);
		gc_import_kend(im);
	}
	if (s.stage != S_ENDED)
		bad(&s, "truncated dump: no end line");
	free(s.join);
	gc_header_free(&s.h);
	return 0;
}
