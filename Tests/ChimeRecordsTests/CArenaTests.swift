import ChimeTestSupport
import Testing
import ChimeCore
import ChimeRecords

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

  /// protobuf-c unpacks into the arena: a message with many strings and nested messages, more
  /// than one chunk's worth, decodes whole.
  @Test func messagesUnpackIntoTheArena() throws {
    let pending = FullValues.fullPending()
    let codec = RecordCodec()
    #expect(try codec.decode(PendingRequest.self, from: codec.encode(pending)) == pending)
  }

  /// Past its limit the arena answers nil (protobuf-c then fails the unpack) and says so; a
  /// size that is negative as an Int (a size_t past Int.max) is refused, not rounded to 16.
  @Test func theLimitAndImpossibleSizesAreRefused() {
    let arena = CArena()
    defer { arena.freeAll() }
    arena.limit = 100
    #expect(arena.tryAllocate(bytes: 40, zeroed: true) != nil)  // 48 of 100
    #expect(arena.tryAllocate(bytes: 40, zeroed: true) != nil)  // 96 of 100
    #expect(!arena.limitReached)
    #expect(arena.tryAllocate(bytes: 1, zeroed: true) == nil)  // 16 more would be 112
    #expect(arena.limitReached)
    arena.limit = .max
    #expect(arena.tryAllocate(bytes: -1, zeroed: false) == nil)
    #expect(arena.tryAllocate(bytes: .max, zeroed: false) == nil)
    arena.freeAll()
    #expect(arena.allocated == 0 && !arena.limitReached)
  }
}
