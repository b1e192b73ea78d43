import Testing
@testable import ChimeWire

/// The arena every message is packed and unpacked in: pieces cut from shared chunks must be
/// aligned, zeroed when asked, never overlap, and outlast the chunk they were cut from.
@Suite struct CArenaTests {
  @Test func piecesAreAlignedDisjointAndZeroedAcrossChunks() {
    let arena = CArena()
    defer { arena.freeAll() }
    // Small and odd sizes, one larger than the first chunk, one larger than the largest.
    let sizes = [1, 7, 16, 17, 300, 1000, 5000, 3, CArena.largestChunkBytes + 5] + Array(repeating: 40, count: 200)
    var pieces: [(UnsafeMutableRawPointer, Int)] = []
    for (i, size) in sizes.enumerated() {
      let piece = arena.allocate(bytes: size)
      #expect(Int(bitPattern: piece) % 16 == 0)
      #expect(UnsafeRawBufferPointer(start: piece, count: size).allSatisfy { $0 == 0 })
      piece.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: i + 1), count: size)
      pieces.append((piece, size))
    }
    // Every piece still holds what was written to it: none was overwritten by a later one.
    for (i, (piece, size)) in pieces.enumerated() {
      #expect(UnsafeRawBufferPointer(start: piece, count: size).allSatisfy { $0 == UInt8(truncatingIfNeeded: i + 1) })
    }
  }

  @Test func anArenaIsReusableAfterFreeAll() {
    let arena = CArena()
    for round in 0..<3 {
      for _ in 0..<100 {
        let piece = arena.allocate(bytes: 64)
        #expect(UnsafeRawBufferPointer(start: piece, count: 64).allSatisfy { $0 == 0 })
        piece.initializeMemory(as: UInt8.self, repeating: UInt8(round + 1), count: 64)
      }
      arena.freeAll()
    }
  }

  /// protobuf-c unpacks into the arena: a message with many strings and nested messages (more
  /// than one chunk) decodes whole, and a truncated one is refused without leaking or crashing.
  @Test func messagesUnpackIntoTheArena() throws {
    let pending = Fixtures.fullPending()
    let bytes = WireCodec.encodePendingRequest(pending)
    #expect(try WireCodec.decodePendingRequest(bytes) == pending)
    for cut in stride(from: 1, to: bytes.count, by: max(bytes.count / 40, 1)) {
      _ = try? WireCodec.decodePendingRequest(Array(bytes.prefix(cut)))
    }
  }
}
