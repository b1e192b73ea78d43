// ICU's common data, cut to the items Chime's use of Foundation loads (data/items.txt; written
// by scripts/gen-icu-data.sh). Static builds link Foundation's ICU from lib_FoundationICU.a,
// whose data package (34 MB) is one archive member defining only ICU's data symbol: defining
// that symbol here keeps the linker from taking the member. Dynamic (debug) builds use the
// toolchain's shared library and its own data; the symbol here is then unused.
#if defined(__linux__) && defined(__ELF__)
#include "icudata-symbol.h"

  .section .rodata.chime_icu_data, "a"
  .globl CHIME_ICU_DATA_SYMBOL
  .type CHIME_ICU_DATA_SYMBOL, @object
  .balign 16
CHIME_ICU_DATA_SYMBOL:
  .incbin "icudata-subset.dat"
  .size CHIME_ICU_DATA_SYMBOL, . - CHIME_ICU_DATA_SYMBOL
  .section .note.GNU-stack, "", @progbits
#endif
