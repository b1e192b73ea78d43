/// Turns frames into bytes for the socket.
public enum FrameEncoder {
  /// The frame as a 4-byte big-endian length followed by the packed `chime.v1.Frame`.
  ///
  /// Never fails; the receiving side enforces its own size limit.
  public static func encode(_ frame: Frame) -> [UInt8] {
    FrameProto.encode(frame)
  }
}
