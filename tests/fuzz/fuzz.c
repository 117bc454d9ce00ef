/* fuzz.c - the helpers of fuzz.h, linked into every target. */
#define _XOPEN_SOURCE 700
#include "fuzz.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

static int rm(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(p);
}

static void cleanup(void)
{
	nftw(dir, rm, 8, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_dir(void)
{
	if (!dir[0]) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/gc-fuzz.XXXXXX", base ? base : "/tmp");
		if (!mkdtemp(dir)) {
			perror("fuzz: mkdtemp");
			abort();
		}
		atexit(cleanup);
	}
	return dir;
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	static char path[600];
	snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
	char *slash = strrchr(path, '/');
	if (slash > path + strlen(dir)) { /* name has a folder: make it */
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror(path);
		abort();
	}
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);
		if (n <= 0) {
			perror(path);
			abort();
		}
		done += (size_t)n;
	}
	close(fd);
	return path;
}

char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
