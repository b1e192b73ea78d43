/// The client's stream identifiers a connection has seen, to tell a HEADERS frame that tries to
/// open a stream below one already opened (RFC 9113 §5.1.1: a connection error) from one that
/// belongs to a stream that existed and is over (trailers crossing a RST_STREAM: ignored).
///
/// Opening stream N closes every idle identifier below it; those never used are kept as ranges.
/// Clients count up by two, so there are usually none; past `maxGaps` ranges the oldest are
/// forgotten and their identifiers are treated as streams that existed. Pure.
struct HTTP2StreamIDs {
  /// The highest client stream opened so far (0: none).
  private(set) var highest: Int32 = 0
  /// Client identifiers skipped when a higher one opened, oldest first.
  private var gaps: [ClosedRange<Int32>] = []
  let maxGaps: Int

  init(maxGaps: Int = 64) { self.maxGaps = maxGaps }

  enum Headers: Equatable {
    /// A new stream (or a frame nghttp2 judges itself: an even or zero identifier).
    case opens
    /// A stream that was opened before.
    case known
    /// An identifier that was skipped: it can never be opened any more.
    case skipped
  }

  /// A HEADERS frame from the client arrives on `id`.
  mutating func headers(on id: Int32) -> Headers {
    guard id > 0, id & 1 == 1 else { return .opens }
    if id > highest {
      let next = highest + 2 - (highest == 0 ? 1 : 0)
      if id > next {
        gaps.append(next...(id - 2))
        if gaps.count > maxGaps { gaps.removeFirst(gaps.count - maxGaps) }
      }
      highest = id
      return .opens
    }
    return gaps.contains { $0.contains(id) } ? .skipped : .known
  }
}
