// Written by scripts/gen-icu-data.sh: the toolchain ICU's data symbol.
#define CHIME_ICU_DATA_SYMBOL icudt76_dat
