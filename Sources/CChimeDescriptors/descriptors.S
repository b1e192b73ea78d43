// The descriptor set of Protos/ (Generated/chime.protoset, written by
// scripts/gen-descriptors.sh), linked in for gRPC server reflection. The build does not track
// the .incbin: the checksum below (kept by that script, checked by check-proto.sh) does.
// chime.protoset sha256: 7696c7004a9da765d6de7fea86325734e59348562eedabc4015c5af6c0e72faa
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
