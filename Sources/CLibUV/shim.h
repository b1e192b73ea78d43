// libuv for Swift, plus the Linux timerfd the loop uses to notice wall-clock changes (Glibc's
// Swift module does not export it). Do not #define _GNU_SOURCE here: it breaks the module
// build (fd_set conflict with SwiftGlibc).
#include <uv.h>
#include <sys/timerfd.h>
