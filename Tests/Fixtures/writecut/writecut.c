// writecut: an LD_PRELOAD shim that lets a test cut the power under a process.
//
// For every file whose path starts with $CHIME_WRITECUT_MATCH (and does not end in "-shm":
// SQLite never syncs its shared-memory index and rebuilds it), each write and truncate first
// appends an undo record to $CHIME_WRITECUT_DIR/<file name>.undo: the file's size before it and
// the bytes it is about to overwrite. fsync or fdatasync of the file empties its undo log: what
// was written before is now on the platter. After the process is killed, replaying each log
// backwards (WriteCut.revert in the tests) leaves every file exactly as it was at its last sync
// — the strictest state a power cut may leave — so a test can check that nothing acknowledged
// was written only to the page cache.
//
// On the first tracked write the shim creates $CHIME_WRITECUT_DIR/active, so a test knows it was
// loaded. Records: u64 size before, u64 offset, u64 length, then `length` old bytes.
// Build: cc -shared -fPIC -O1 -o writecut.so writecut.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off64_t);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off64_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static const char *match, *logdir;
static int announced;

static void setup(void) {
  if (real_write) return;
  real_pwrite = dlsym(RTLD_NEXT, "pwrite");
  real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
  real_ftruncate = dlsym(RTLD_NEXT, "ftruncate");
  real_ftruncate64 = dlsym(RTLD_NEXT, "ftruncate64");
  real_fsync = dlsym(RTLD_NEXT, "fsync");
  real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
  match = getenv("CHIME_WRITECUT_MATCH");
  logdir = getenv("CHIME_WRITECUT_DIR");
  real_write = dlsym(RTLD_NEXT, "write");
}

// The undo log of fd's file into `log` and its path into `path` (PATH_MAX each), or 0 when the
// file is not tracked.
static int tracked(int fd, char *log, char *path) {
  if (!match || !logdir || !*match) return 0;
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, PATH_MAX - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  size_t m = strlen(match);
  if (strncmp(path, match, m) != 0) return 0;
  if (n >= 4 && strcmp(path + n - 4, "-shm") == 0) return 0;
  const char *name = strrchr(path, '/');
  snprintf(log, PATH_MAX, "%s/%s.undo", logdir, name ? name + 1 : path);
  return 1;
}

static void write_all(int fd, const void *bytes, size_t length) {
  const char *p = bytes;
  while (length > 0) {
    ssize_t n = real_write(fd, p, length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) abort();  // a test tool that cannot keep its record must not pass silently
    p += n;
    length -= (size_t)n;
  }
}

// Records what [offset, offset + length) holds now and the size before a change. The old bytes
// are read through a descriptor of our own: the writer's may be write-only.
static void record(int fd, const char *path, const char *log, uint64_t offset, uint64_t length) {
  struct stat st;
  if (fstat(fd, &st) != 0) abort();
  uint64_t size = (uint64_t)st.st_size;
  uint64_t kept = offset < size ? (size - offset < length ? size - offset : length) : 0;
  char *old = kept ? malloc(kept) : NULL;
  if (kept) {
    int in = open(path, O_RDONLY | O_CLOEXEC);
    if (in < 0 || !old || pread(in, old, kept, (off_t)offset) != (ssize_t)kept) abort();
    close(in);
  }
  int out = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (out < 0) abort();
  uint64_t header[3] = {size, offset, kept};
  write_all(out, header, sizeof header);
  if (kept) write_all(out, old, kept);
  close(out);
  free(old);
  if (!announced) {
    char marker[PATH_MAX];
    snprintf(marker, sizeof marker, "%s/active", logdir);
    int m = open(marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (m >= 0) close(m);
    announced = 1;
  }
}

// Where a write lands: at `offset`, or for write(2) at the file offset (the end for O_APPEND);
// -1 for a pipe or socket.
static int64_t landing(int fd, int64_t offset) {
  if (offset >= 0) return offset;
  struct stat st;
  int flags = fcntl(fd, F_GETFL);
  if (flags >= 0 && (flags & O_APPEND) && fstat(fd, &st) == 0) return st.st_size;
  return lseek(fd, 0, SEEK_CUR);
}

static void before_truncate(int fd, const char *path, const char *log, int64_t length) {
  struct stat st;
  if (fstat(fd, &st) != 0) abort();
  if (length < st.st_size) record(fd, path, log, (uint64_t)length, (uint64_t)(st.st_size - length));
  else record(fd, path, log, (uint64_t)st.st_size, 0);
}

// Untracked files go straight through; tracked ones are recorded and changed under one lock, and
// a sync empties the log under it too, so no record is dropped for a write the sync missed.
#define WRITE_THROUGH(call, fd, offset, count)            \
  setup();                                                \
  char log[PATH_MAX], path[PATH_MAX];                     \
  if (!tracked(fd, log, path)) return call;               \
  pthread_mutex_lock(&lock);                              \
  int64_t at = landing(fd, offset);                       \
  if (at >= 0) record(fd, path, log, (uint64_t)at, count); \
  ssize_t n = call;                                       \
  pthread_mutex_unlock(&lock);                            \
  return n;

ssize_t write(int fd, const void *buf, size_t count) { WRITE_THROUGH(real_write(fd, buf, count), fd, -1, count) }

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  WRITE_THROUGH(real_pwrite(fd, buf, count, offset), fd, offset, count)
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
  WRITE_THROUGH(real_pwrite64(fd, buf, count, offset), fd, offset, count)
}

#define TRUNCATE_THROUGH(call, fd, length) \
  setup();                                 \
  char log[PATH_MAX], path[PATH_MAX];      \
  if (!tracked(fd, log, path)) return call; \
  pthread_mutex_lock(&lock);               \
  before_truncate(fd, path, log, length);  \
  int rc = call;                           \
  pthread_mutex_unlock(&lock);             \
  return rc;

int ftruncate(int fd, off_t length) { TRUNCATE_THROUGH(real_ftruncate(fd, length), fd, length) }
int ftruncate64(int fd, off64_t length) { TRUNCATE_THROUGH(real_ftruncate64(fd, length), fd, length) }

#define SYNC_THROUGH(call, fd)        \
  setup();                            \
  char log[PATH_MAX], path[PATH_MAX];  \
  if (!tracked(fd, log, path)) return call; \
  pthread_mutex_lock(&lock);          \
  int rc = call;                      \
  if (rc == 0) truncate(log, 0);      \
  pthread_mutex_unlock(&lock);        \
  return rc;

int fsync(int fd) { SYNC_THROUGH(real_fsync(fd), fd) }
int fdatasync(int fd) { SYNC_THROUGH(real_fdatasync(fd), fd) }
