// libuv for Swift. Do not #define _GNU_SOURCE here: it breaks the module build
// (fd_set conflict with SwiftGlibc).
#include <uv.h>
