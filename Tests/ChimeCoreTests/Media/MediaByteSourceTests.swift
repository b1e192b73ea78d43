import ChimeCore
import Testing

@Suite("Byte sources")
struct MediaByteSourceTests {
  @Test func memoryReadsAreBoundsChecked() throws {
    let source = MemoryByteSource([1, 2, 3, 4])
    #expect(try source.read(at: 1, count: 2) == [2, 3])
    #expect(try source.read(at: 4, count: 0) == [])
    for (offset, count) in [(3, 2), (-1, 1), (0, -1), (5, 0), (Int.max, 1), (1, Int.max)] {
      #expect(throws: ChimeError.self) { try source.read(at: offset, count: count) }
    }
  }
}
