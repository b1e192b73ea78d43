// The descriptor set of Protos/ (Generated/chime.protoset, written by
// scripts/gen-descriptors.sh), linked in for gRPC server reflection. The build does not track
// the .incbin: the checksum below (kept by that script, checked by check-proto.sh) does.
// chime.protoset sha256: c0fe750fcd12acb59734cc183d79d2e006c6aa4aae6b61e0228543ce17367f9f
#if defined(__ELF__)
  .section .rodata.chime_descriptor_set, "a"
  .globl chime_descriptor_set
  .type chime_descriptor_set, @object
  .balign 16
chime_descriptor_set:
  .incbin "chime.protoset"
  .size chime_descriptor_set, . - chime_descriptor_set
  .globl chime_descriptor_set_end
chime_descriptor_set_end:
  .section .note.GNU-stack, "", @progbits
#endif
