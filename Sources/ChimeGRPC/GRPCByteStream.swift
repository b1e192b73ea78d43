/// The connection's byte stream as the gRPC transport uses it: a `StreamSocket` in chimed, a
/// buffer in the fuzz harness (Fuzz/GRPCFuzzEntry.swift). Loop thread only.
protocol GRPCByteStream: AnyObject {
  var isClosed: Bool { get }
  /// Bytes written but not yet taken by the peer.
  var queuedWriteBytes: Int { get }
  func write(_ bytes: [UInt8])
  func close(reason: String)
  /// Stops reading, lets queued writes reach the peer, then closes.
  func closeAfterFlush(reason: String)
}
