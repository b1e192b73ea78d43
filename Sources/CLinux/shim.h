// Linux calls glibc (2.36+) provides but Swift's Glibc module does not export. Declared here
// with plain C types rather than by including <sys/pidfd.h>, whose includes would make this
// module the owner of types (struct timespec, ...) that belong to Glibc.
#ifndef CHIME_CLINUX_SHIM_H
#define CHIME_CLINUX_SHIM_H

int pidfd_open(int pid, unsigned int flags);
int pidfd_send_signal(int pidfd, int sig, void *info, unsigned int flags);
// accept4(2) is declared by <sys/socket.h> only under _GNU_SOURCE; the address is not wanted.
int accept4(int sockfd, void *addr, void *addrlen, int flags);
// sync_file_range(2) (needs _GNU_SOURCE in <fcntl.h>); off64_t is long on x86_64 and arm64.
int sync_file_range(int fd, long offset, long nbytes, unsigned int flags);
enum { CHIME_SYNC_FILE_RANGE_WAIT_BEFORE = 1, CHIME_SYNC_FILE_RANGE_WRITE = 2, CHIME_SYNC_FILE_RANGE_WAIT_AFTER = 4 };
// SCHED_IDLE (<sched.h> declares it only under _GNU_SOURCE).
enum { CHIME_SCHED_IDLE = 5 };
// malloc_trim(3) (<malloc.h>): hands freed heap memory back to the kernel.
int malloc_trim(unsigned long pad);
// pthread_setname_np(3) (needs _GNU_SOURCE in <pthread.h>); pthread_t is unsigned long.
int pthread_setname_np(unsigned long thread, const char *name);

// epoll(7): <sys/epoll.h> is not in Swift's Glibc module. Declared under names of their own
// (asm labels bind them to glibc's symbols), so a module that includes <sys/epoll.h> meets no
// second declaration. The event is packed on x86_64 only, as glibc declares it.
struct chime_epoll_event {
  unsigned int events;
  unsigned long long token;
}
#if defined(__x86_64__)
__attribute__((__packed__))
#endif
;
int chime_epoll_create1(int flags) __asm__("epoll_create1");
int chime_epoll_ctl(int epfd, int op, int fd, struct chime_epoll_event *event) __asm__("epoll_ctl");
int chime_epoll_wait(int epfd, struct chime_epoll_event *events, int maxevents, int timeout) __asm__("epoll_wait");
enum {
  CHIME_EPOLL_CLOEXEC = 02000000, CHIME_EPOLL_CTL_ADD = 1, CHIME_EPOLL_CTL_DEL = 2, CHIME_EPOLL_CTL_MOD = 3,
  CHIME_EPOLLIN = 0x001, CHIME_EPOLLRDHUP = 0x2000, CHIME_EPOLLONESHOT = 1 << 30
};

#endif
