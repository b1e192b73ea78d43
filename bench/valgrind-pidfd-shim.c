/* Preloaded into chimed only when it runs under valgrind 3.19 (scripts/bench-check.sh), which
 * does not know the pidfd system calls and answers ENOSYS: chimed would then refuse every peer
 * ("exited before it could be identified"). This gives pidfd_open a /proc/PID directory
 * descriptor and answers pidfd_send_signal(fd, 0) with kill(pid, 0), the pid read from that
 * directory's path or from a real pidfd's fdinfo. Called once per connection: it does not touch
 * the per-add instruction count, which is a difference between runs with N and 2N adds. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int pidfd_open(pid_t pid, unsigned int flags) {
  long fd = syscall(SYS_pidfd_open, pid, flags);
  if (fd >= 0 || errno != ENOSYS) return (int)fd;
  char path[64];
  snprintf(path, sizeof path, "/proc/%d", (int)pid);
  return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static pid_t pid_of(int fd) {
  char link[64], target[256];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, sizeof target - 1);
  if (n > 6) {
    target[n] = 0;
    if (strncmp(target, "/proc/", 6) == 0 && target[6] >= '0' && target[6] <= '9') return (pid_t)atoi(target + 6);
  }
  char info[64], line[256];
  snprintf(info, sizeof info, "/proc/self/fdinfo/%d", fd);
  FILE *f = fopen(info, "r");
  if (!f) return -1;
  pid_t pid = -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "Pid:", 4) == 0) pid = (pid_t)atoi(line + 4);
  fclose(f);
  return pid;
}

int pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags) {
  long r = syscall(SYS_pidfd_send_signal, pidfd, sig, info, flags);
  if (r >= 0 || errno != ENOSYS) return (int)r;
  pid_t pid = pid_of(pidfd);
  if (pid <= 0) { errno = ESRCH; return -1; }
  return kill(pid, sig);
}
