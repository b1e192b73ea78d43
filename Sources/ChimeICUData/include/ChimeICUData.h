// No declarations: the target only defines ICU's data symbol (icudata.S).
