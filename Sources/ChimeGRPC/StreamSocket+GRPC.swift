import ChimeServer

extension StreamSocket: GRPCByteStream {}
