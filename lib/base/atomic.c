/* atomic.c - output files under a temporary name until they are complete. */
#include "base/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The outputs of one process under a temporary name: a tool has a few
 * (a stream, --stats, a report, a plot). */
#define SLOTS 16
#define NAME 4096

static struct pending {
	int fd; /* -1: free */
	char path[NAME], tmp[NAME];
} pend[SLOTS];
static int ready;

static void at_exit(void)
{
	for (int i = 0; i < SLOTS; i++)
		if (pend[i].fd >= 0) {
			unlink(pend[i].tmp);
			pend[i].fd = -1;
		}
}

static struct pending *find(int fd)
{
	for (int i = 0; fd >= 0 && i < SLOTS; i++)
		if (pend[i].fd == fd)
			return &pend[i];
	return NULL;
}

int gc_atomic_open(const char *path)
{
	struct stat st;
	int exists = lstat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (!ready) {
		for (int i = 0; i < SLOTS; i++)
			pend[i].fd = -1;
		if (atexit(at_exit) != 0)
			return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		ready = 1;
	}
	struct pending *p = NULL;
	for (int i = 0; i < SLOTS && !p; i++)
		if (pend[i].fd < 0)
			p = &pend[i];
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
	if (!p || strlen(path) + 9 >= NAME) /* no room to remember it: in place */
		return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	snprintf(p->path, NAME, "%s", path);
	snprintf(p->tmp, NAME, "%.*s.%s.XXXXXX", (int)dl, path, path + dl);
	int fd = mkstemp(p->tmp);
	if (fd < 0)
		return -1;
	mode_t mode;
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(fd, mode) < 0) {
		int e = errno;
		close(fd);
		unlink(p->tmp);
		errno = e;
		return -1;
	}
	p->fd = fd;
	return fd;
}

int gc_atomic_commit(int fd)
{
	struct pending *p = find(fd);
	if (!p)
		return 0;
	p->fd = -1;
	if (rename(p->tmp, p->path) < 0) {
		int e = errno;
		unlink(p->tmp);
		errno = e;
		return -1;
	}
	return 0;
}

void gc_atomic_discard(int fd)
{
	struct pending *p = find(fd);
	if (p) {
		unlink(p->tmp);
		p->fd = -1;
	}
}
