// The descriptor set of Protos/ (Generated/chime.protoset, written by
// scripts/gen-descriptors.sh), linked in for gRPC server reflection. The build does not track
// the .incbin: the checksum below (kept by that script, checked by check-proto.sh) does.
// chime.protoset sha256: d9a460b3a0b3e9f83eb29765a7f733fbc8d03a06a47a085625965942b4037900
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
