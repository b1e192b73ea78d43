extension StreamSocket: GRPCByteStream {}
