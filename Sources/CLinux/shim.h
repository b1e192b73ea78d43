// Linux calls glibc (2.36+) provides but Swift's Glibc module does not export. Declared here
// with plain C types rather than by including <sys/pidfd.h>, whose includes would make this
// module the owner of types (struct timespec, ...) that belong to Glibc.
#ifndef CHIME_CLINUX_SHIM_H
#define CHIME_CLINUX_SHIM_H

int pidfd_open(int pid, unsigned int flags);
int pidfd_send_signal(int pidfd, int sig, void *info, unsigned int flags);
// accept4(2) is declared by <sys/socket.h> only under _GNU_SOURCE; the address is not wanted.
int accept4(int sockfd, void *addr, void *addrlen, int flags);

#endif
