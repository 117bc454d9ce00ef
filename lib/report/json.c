/* json.c - the streaming JSON writer of json.h. */
#include "report/json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void gc_json_quote(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void jkey(gc_json *j, const char *key)
{
	fputs(j->first[j->depth] ? "\n" : ",\n", j->f);
	j->first[j->depth] = 0;
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
	if (key) {
		gc_json_quote(j->f, key);
		fputs(": ", j->f);
	}
}

void gc_json_begin(gc_json *j, FILE *f)
{
	j->f = f;
	j->depth = 1;
	j->first[1] = 1;
	j->type[1] = '{';
	fputc('{', f);
}

static void jopen(gc_json *j, const char *key, int c)
{
	jkey(j, key);
	fputc(c, j->f);
	if (j->depth < 31)
		j->depth++;
	j->first[j->depth] = 1;
	j->type[j->depth] = (char)c;
}

void gc_json_obj(gc_json *j, const char *key) { jopen(j, key, '{'); }
void gc_json_arr(gc_json *j, const char *key) { jopen(j, key, '['); }

static void jclose(gc_json *j, int c)
{
	int empty = j->first[j->depth];
	j->depth--;
	if (!empty) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(c, j->f);
}

void gc_json_close(gc_json *j)
{
	jclose(j, j->type[j->depth] == '[' ? ']' : '}');
}

void gc_json_end(gc_json *j)
{
	jclose(j, '}');
	fputc('\n', j->f);
}

void gc_json_u64(gc_json *j, const char *key, uint64_t v)
{
	jkey(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void gc_json_u64s(gc_json *j, const char *key, const uint64_t *v, size_t n, size_t stride)
{
	jkey(j, key);
	fputc('[', j->f);
	for (size_t i = 0; i < n; i++)
		fprintf(j->f, i ? ", %llu" : "%llu", (unsigned long long)v[i * stride]);
	fputc(']', j->f);
}

void gc_json_i64(gc_json *j, const char *key, int64_t v)
{
	jkey(j, key);
	fprintf(j->f, "%lld", (long long)v);
}

void gc_json_num(gc_json *j, const char *key, double v)
{
	jkey(j, key);
	if (!isfinite(v))
		fputs("null", j->f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(j->f, "%.0f", v);
	else
		fprintf(j->f, "%.6g", v);
}

void gc_json_str(gc_json *j, const char *key, const char *s)
{
	jkey(j, key);
	if (s)
		gc_json_quote(j->f, s);
	else
		fputs("null", j->f);
}

void gc_json_bool(gc_json *j, const char *key, int v)
{
	jkey(j, key);
	fputs(v ? "true" : "false", j->f);
}

void gc_json_null(gc_json *j, const char *key)
{
	jkey(j, key);
	fputs("null", j->f);
}

