// The descriptor set of Protos/ linked into chimed (descriptors.S), for gRPC reflection.
#include <stddef.h>

extern const unsigned char chime_descriptor_set[];
extern const unsigned char chime_descriptor_set_end[];

static inline const unsigned char *chime_descriptor_set_bytes(void) { return chime_descriptor_set; }
static inline size_t chime_descriptor_set_count(void) { return (size_t)(chime_descriptor_set_end - chime_descriptor_set); }
